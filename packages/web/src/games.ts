import type { Capability } from '@garrison/core';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from './session.js';
import { useQuery } from './cache/use-query.js';
import { humanise } from './format.js';

export type GameType = ResponseOf<Endpoints['getGame']>;
export type GameSummary = ResponseOf<Endpoints['listGames']>[number];
export type IdentityKind = GameType['identity_kinds'][number];

/**
 * What a game can do changes only with its adapter, that is with a restart of the service: no live event
 * makes these reads out of date, so they have no cache rule (cache/rules) and are kept for a day.
 */
const GAMES_MAX_AGE_MS = 24 * 60 * 60_000;

/** The games the service runs (public reads: they do not count against the rate limit). */
export const useGames = () => useQuery('games:list', () => client.games.list(), GAMES_MAX_AGE_MS);

/**
 * One game with everything game-specific the console shows (capabilities, config sections, executables,
 * identity kinds, missions, words); undefined while it loads.
 */
export const useGame = (gameType: string | null) =>
  useQuery(`games:type:${gameType ?? ''}`, () => (gameType ? client.games.get(gameType) : Promise.resolve(undefined)), GAMES_MAX_AGE_MS)
    .data;

/** The game a server is made for when the admin does not choose (the service's setting), else the first. */
export const useDefaultGameType = (): string | null => {
  const games = useGames().data;
  return games?.find((g) => g.default)?.game_type ?? games?.[0]?.game_type ?? null;
};

export const can = (game: Pick<GameSummary, 'capabilities'> | undefined, capability: Capability): boolean =>
  !!game?.capabilities.includes(capability);

/** How the game knows a player (not the address he connects from), for column headings and search hints. */
export const playerIdLabel = (game: GameType | undefined): string => game?.identity_kinds.find((k) => !k.address)?.label ?? 'ID';

/** What the game calls the address a player connects from. */
export const addressLabel = (game: GameType | undefined): string => game?.identity_kinds.find((k) => k.address)?.label ?? 'IP address';

/** What the game calls one mission (`Mission`, `Map`). */
export const missionLabel = (game: GameType | undefined): string => game?.missions?.label ?? 'Mission';

interface JsonSchema {
  title?: string;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
}

/** One option of a rotation entry besides its name: its values to choose from, or null for free text. */
export interface RotationOption {
  key: string;
  label: string;
  values: string[] | null;
  /** What a new entry gets. */
  initial: string | undefined;
}

/** The values a JSON Schema allows: its `enum`, or the `const` of each member of its `anyOf`/`oneOf`; null when any. */
function valuesOf(schema: JsonSchema): string[] | null {
  if (schema.enum) return schema.enum.map(String);
  const members = schema.anyOf ?? schema.oneOf;
  if (members?.every((m) => m.const !== undefined)) return members.map((m) => String(m.const));
  return null;
}

/** The options of a rotation entry the game declares (as JSON Schema), in its order. */
export function rotationOptionsOf(game: GameType | undefined): RotationOption[] {
  // Any JSON Schema object, as the API types it: read as the parts of one this needs.
  const schema: JsonSchema = { ...game?.missions?.rotation_options };
  return Object.entries(schema.properties ?? {}).map(([key, option]) => {
    const values = valuesOf(option);
    const initial = option.default !== undefined ? String(option.default) : values?.includes('') ? '' : undefined;
    return { key, label: option.title ?? humanise(key), values, initial };
  });
}

/** An option's value as a list shows it: the empty value is the game's own default. */
export const optionText = (value: string): string => value || 'Default';

/** What a mission file's name carries besides its name, as the API lists it beside the name. */
const MISSION_FILE_FIELDS = ['name', 'filename', 'size_bytes', 'warning'];
export function missionParts(missions: readonly object[]): string[] {
  const parts = new Set<string>();
  for (const m of missions) {
    for (const [key, value] of Object.entries(m)) if (!MISSION_FILE_FIELDS.includes(key) && typeof value === 'string') parts.add(key);
  }
  return [...parts];
}
