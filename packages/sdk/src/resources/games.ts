import type { Caller, Result } from './calls.js';

export const games = (c: Caller) => ({
  list: (): Result<'listGames'> => c.call('listGames'),
  get: (game_type: string): Result<'getGame'> => c.call('getGame', { params: { game_type } }),
  configSchema: (game_type: string): Result<'getGameConfigSchema'> => c.call('getGameConfigSchema', { params: { game_type } }),
  commands: (game_type: string): Result<'getGameCommands'> => c.call('getGameCommands', { params: { game_type } }),
  defaults: (game_type: string): Result<'getGameDefaults'> => c.call('getGameDefaults', { params: { game_type } }),
});
