import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { GameCommands, GameConfigSchema, GameDefaults, GameDetail, GameSummary, GameTypeParams } from './games.js';

/** The registered game types: what a client needs to offer them (public). */
export const gameEndpoints = {
  listGames: defineEndpoint({
    operationId: 'listGames', method: 'GET', path: '/games', tag: 'games', summary: 'Registered game types', access: 'public',
    scope: 'servers:read', status: 200, response: Type.Array(GameSummary),
  }),
  getGame: defineEndpoint({
    operationId: 'getGame', method: 'GET', path: '/games/{game_type}', tag: 'games', summary: 'One game type', access: 'public',
    scope: 'servers:read', params: GameTypeParams, status: 200, response: GameDetail, errors: ['GAME_TYPE_NOT_FOUND'],
  }),
  getGameConfigSchema: defineEndpoint({
    operationId: 'getGameConfigSchema', method: 'GET', path: '/games/{game_type}/config-schema', tag: 'games',
    summary: 'JSON Schema of each config section', access: 'public', scope: 'servers:read', params: GameTypeParams, status: 200,
    response: GameConfigSchema, errors: ['GAME_TYPE_NOT_FOUND'],
  }),
  getGameCommands: defineEndpoint({
    operationId: 'getGameCommands', method: 'GET', path: '/games/{game_type}/commands', tag: 'games',
    summary: "The game's remote-admin commands, as templates for a command line to offer", access: 'public', scope: 'servers:read',
    params: GameTypeParams, status: 200, response: GameCommands, errors: ['GAME_TYPE_NOT_FOUND'],
  }),
  getGameDefaults: defineEndpoint({
    operationId: 'getGameDefaults', method: 'GET', path: '/games/{game_type}/defaults', tag: 'games',
    summary: 'Default values of each config section', access: 'public', scope: 'servers:read', params: GameTypeParams, status: 200,
    response: GameDefaults, errors: ['GAME_TYPE_NOT_FOUND'],
  }),
} as const;
