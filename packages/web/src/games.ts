import type { Capability } from '@garrison/core';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from './session.js';
import { useQuery } from './cache/use-query.js';

export type GameType = ResponseOf<Endpoints['getGame']>;
export type GameSummary = ResponseOf<Endpoints['listGames']>[number];

/** What a game can do changes only with its adapter, that is with a restart of the service. */
const GAMES_MAX_AGE_MS = 24 * 60 * 60_000;

/** The games the service runs (public reads: they do not count against the rate limit). */
export const useGames = () => useQuery('games:list', () => client.games.list(), GAMES_MAX_AGE_MS);

/** One game with its capabilities, config sections and allowed executables; undefined while it loads. */
export const useGame = (gameType: string | null) =>
  useQuery(`games:type:${gameType ?? ''}`, () => (gameType ? client.games.get(gameType) : Promise.resolve(undefined)), GAMES_MAX_AGE_MS)
    .data;

export const can = (game: Pick<GameSummary, 'capabilities'> | undefined, capability: Capability): boolean =>
  !!game?.capabilities.includes(capability);
