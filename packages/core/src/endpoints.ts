import { Type } from './typebox.js';
import { defineEndpoint } from './endpoint.js';
import { MessageResponse, ServerIdParams } from './schemas/common.js';
import {
  ChangePasswordRequest,
  CreatedUser,
  CreateUserRequest,
  LoginRequest,
  LoginResponse,
  User,
  UserIdParams,
  UserSummary,
} from './schemas/auth.js';
import { GameConfigSchema, GameDefaults, GameDetail, GameSummary, GameTypeParams } from './schemas/games.js';
import { Health, SystemStatus } from './schemas/system.js';
import {
  CreatedServer,
  CreateServerRequest,
  ServerDetail,
  ServerListItem,
  ServerListQuery,
  UpdateServerRequest,
} from './schemas/servers.js';
import {
  ConfigPreview,
  ConfigRead,
  ConfigSectionParams,
  ConfigSectionRead,
  ConfigSectionUpdate,
  ConfigWidgetHints,
} from './schemas/config.js';
import { RconCommandRequest, RconCommandResponse } from './schemas/rcon.js';

/** The HTTP contract, one entry per endpoint. */
export const endpoints = {
  // --- auth
  login: defineEndpoint({
    operationId: 'login', method: 'POST', path: '/auth/login', tag: 'auth', summary: 'Exchange credentials for a token',
    access: 'public', body: LoginRequest, status: 200, response: LoginResponse, errors: ['UNAUTHORIZED', 'RATE_LIMITED'],
  }),
  logout: defineEndpoint({
    operationId: 'logout', method: 'POST', path: '/auth/logout', tag: 'auth', summary: 'Log out (the client forgets its token)',
    access: 'any', status: 200, response: MessageResponse,
  }),
  me: defineEndpoint({
    operationId: 'me', method: 'GET', path: '/auth/me', tag: 'auth', summary: 'The caller', access: 'any', status: 200, response: UserSummary,
  }),
  changePassword: defineEndpoint({
    operationId: 'changePassword', method: 'PUT', path: '/auth/password', tag: 'auth', summary: "Change one's own password",
    access: 'any', body: ChangePasswordRequest, status: 200, response: MessageResponse, errors: ['UNAUTHORIZED'],
  }),
  listUsers: defineEndpoint({
    operationId: 'listUsers', method: 'GET', path: '/auth/users', tag: 'auth', summary: 'List users',
    access: 'admin', status: 200, response: Type.Array(User),
  }),
  createUser: defineEndpoint({
    operationId: 'createUser', method: 'POST', path: '/auth/users', tag: 'auth', summary: 'Create a user',
    access: 'admin', body: CreateUserRequest, status: 201, response: CreatedUser, errors: ['CONFLICT'],
  }),
  deleteUser: defineEndpoint({
    operationId: 'deleteUser', method: 'DELETE', path: '/auth/users/{user_id}', tag: 'auth', summary: 'Delete a user',
    access: 'admin', params: UserIdParams, status: 204, errors: ['NOT_FOUND'],
  }),

  // --- games
  listGames: defineEndpoint({
    operationId: 'listGames', method: 'GET', path: '/games', tag: 'games', summary: 'Registered game types',
    access: 'public', status: 200, response: Type.Array(GameSummary),
  }),
  getGame: defineEndpoint({
    operationId: 'getGame', method: 'GET', path: '/games/{game_type}', tag: 'games', summary: 'One game type',
    access: 'public', params: GameTypeParams, status: 200, response: GameDetail, errors: ['GAME_TYPE_NOT_FOUND'],
  }),
  getGameConfigSchema: defineEndpoint({
    operationId: 'getGameConfigSchema', method: 'GET', path: '/games/{game_type}/config-schema', tag: 'games',
    summary: 'JSON Schema of each config section', access: 'public', params: GameTypeParams, status: 200,
    response: GameConfigSchema, errors: ['GAME_TYPE_NOT_FOUND'],
  }),
  getGameDefaults: defineEndpoint({
    operationId: 'getGameDefaults', method: 'GET', path: '/games/{game_type}/defaults', tag: 'games',
    summary: 'Default values of each config section', access: 'public', params: GameTypeParams, status: 200,
    response: GameDefaults, errors: ['GAME_TYPE_NOT_FOUND'],
  }),

  // --- system
  health: defineEndpoint({
    operationId: 'health', method: 'GET', path: '/system/health', tag: 'system', summary: 'Liveness',
    access: 'public', status: 200, response: Health, envelope: 'none',
  }),
  systemStatus: defineEndpoint({
    operationId: 'systemStatus', method: 'GET', path: '/system/status', tag: 'system', summary: 'Service summary',
    access: 'any', status: 200, response: SystemStatus, envelope: 'without-error',
  }),

  // --- servers
  listServers: defineEndpoint({
    operationId: 'listServers', method: 'GET', path: '/servers', tag: 'servers', summary: 'List servers',
    access: 'any', query: ServerListQuery, status: 200, response: Type.Array(ServerListItem),
  }),
  createServer: defineEndpoint({
    operationId: 'createServer', method: 'POST', path: '/servers', tag: 'servers', summary: 'Create a server',
    access: 'admin', body: CreateServerRequest, status: 201, response: CreatedServer,
    errors: ['GAME_TYPE_NOT_FOUND', 'EXE_NOT_ALLOWED', 'PORT_IN_USE'],
  }),
  getServer: defineEndpoint({
    operationId: 'getServer', method: 'GET', path: '/servers/{server_id}', tag: 'servers', summary: 'One server',
    access: 'any', params: ServerIdParams, status: 200, response: ServerDetail, errors: ['NOT_FOUND'],
  }),
  updateServer: defineEndpoint({
    operationId: 'updateServer', method: 'PUT', path: '/servers/{server_id}', tag: 'servers', summary: 'Change a server',
    access: 'admin', params: ServerIdParams, body: UpdateServerRequest, status: 200, response: ServerDetail,
    errors: ['NOT_FOUND', 'EXE_NOT_ALLOWED', 'PORT_IN_USE'],
  }),
  deleteServer: defineEndpoint({
    operationId: 'deleteServer', method: 'DELETE', path: '/servers/{server_id}', tag: 'servers', summary: 'Delete a stopped server',
    access: 'admin', params: ServerIdParams, status: 204, errors: ['NOT_FOUND', 'SERVER_NOT_STOPPED'],
  }),

  // --- config
  getConfig: defineEndpoint({
    operationId: 'getConfig', method: 'GET', path: '/servers/{server_id}/config', tag: 'config', summary: 'All config sections',
    access: 'any', params: ServerIdParams, status: 200, response: ConfigRead, errors: ['NOT_FOUND'],
  }),
  getConfigSchema: defineEndpoint({
    operationId: 'getConfigSchema', method: 'GET', path: '/servers/{server_id}/config/schema', tag: 'config',
    summary: 'Widget hints per section and field', access: 'any', params: ServerIdParams, status: 200,
    response: ConfigWidgetHints, errors: ['NOT_FOUND'],
  }),
  previewConfig: defineEndpoint({
    operationId: 'previewConfig', method: 'GET', path: '/servers/{server_id}/config/preview', tag: 'config',
    summary: 'The config files as they would be written', access: 'admin', capability: 'config_generator',
    params: ServerIdParams, status: 200, response: ConfigPreview, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  getConfigSection: defineEndpoint({
    operationId: 'getConfigSection', method: 'GET', path: '/servers/{server_id}/config/{section}', tag: 'config',
    summary: 'One config section', access: 'any', params: ConfigSectionParams, status: 200, response: ConfigSectionRead,
    errors: ['NOT_FOUND'],
  }),
  updateConfigSection: defineEndpoint({
    operationId: 'updateConfigSection', method: 'PUT', path: '/servers/{server_id}/config/{section}', tag: 'config',
    summary: 'Change some fields of a section', access: 'admin', params: ConfigSectionParams, body: ConfigSectionUpdate,
    invalidBodyCode: 'INVALID_CONFIG', status: 200, response: ConfigSectionRead,
    errors: ['NOT_FOUND', 'CONFIG_VERSION_CONFLICT', 'INVALID_CONFIG', 'PORT_IN_USE'],
  }),

  // --- remote admin
  rconCommand: defineEndpoint({
    operationId: 'rconCommand', method: 'POST', path: '/servers/{server_id}/rcon/command', tag: 'rcon',
    summary: 'Run a remote-admin command on a running server', access: 'admin', capability: 'remote_admin',
    params: ServerIdParams, body: RconCommandRequest, status: 200, response: RconCommandResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_RCON_PASSWORD', 'SERVER_NOT_RUNNING', 'RCON_ERROR'],
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;
