import type { Capability } from '@garrison/core';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from './session.js';
import { useQuery } from './cache/use-query.js';

export type GameType = ResponseOf<Endpoints['getGame']>;
export type GameSummary = ResponseOf<Endpoints['listGames']>[number];

/**
 * What a game can do changes only with its adapter, that is with a restart of the service: no live event
 * makes these reads out of date, so they have no cache rule (cache/rules) and are kept for a day.
 */
export const GAMES_MAX_AGE_MS = 24 * 60 * 60_000;

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
