import { Type } from './typebox.js';
import { defineEndpoint } from './endpoint.js';
import { auditEndpoints } from './endpoints/audit.js';
import type { ErrorCode } from './errors.js';
import { MessageResponse, ServerIdParams } from './schemas/common.js';
import {
  ChangePasswordRequest,
  CreatedUser,
  CreateUserRequest,
  UpdateUserRequest,
  LoginRequest,
  LoginResponse,
  User,
  UserIdParams,
  UserSummary,
} from './schemas/auth.js';
import { GameCommands, GameConfigSchema, GameDefaults, GameDetail, GameSummary, GameTypeParams } from './schemas/games.js';
import { Health, Integrations, SystemStatus } from './schemas/system.js';
import { DisableTwoFactorRequest, LoginSecondStepRequest, MfaChallenge, RecoveryCodes, TwoFactorCodeRequest, TwoFactorSetup, TwoFactorStatus } from './schemas/two-factor.js';
import { ApiKey, ApiKeyIdParams, ApiKeyQuery, CreateApiKeyRequest, CreatedApiKey, Session, SessionIdParams } from './schemas/api-keys.js';
import {
  CreatedWebhook, CreateWebhookRequest, RotatedSecret, UpdateWebhookRequest, Webhook, WebhookDelivery, WebhookDeliveryPage, WebhookDeliveryParams,
  WebhookDeliveryQuery, WebhookIdParams,
} from './schemas/webhooks.js';
import { ClusterNode, NodeIdParams, UpdateNodeRequest } from './schemas/nodes.js';
import {
  CreatedServer,
  CreateServerRequest,
  ServerDetail,
  ServerListItem,
  ServerListQuery,
  UpdateServerRequest,
} from './schemas/servers.js';
import { ImportPlan, ImportServerRequest } from './schemas/import.js';
import { Backup, BackupDetail, BackupIdParams, CreateBackupRequest, UpdateBackupRequest } from './schemas/backups.js';
import { CreateScheduleRequest, RunStarted, Schedule, ScheduleIdParams, ScheduleRunPage, ScheduleRunQuery, UpdateScheduleRequest } from './schemas/schedules.js';
import {
  ConfigPreview,
  ConfigRead,
  ConfigSectionParams,
  ConfigSectionRead,
  ConfigSectionUpdate,
  ConfigWidgetHints,
} from './schemas/config.js';
import { RconCommandRequest, RconCommandResponse } from './schemas/rcon.js';
import { ProcessInfo } from './schemas/processes.js';
import { AuditPage, AuditQuery, StartResponse, StoppedResponse, StopRequest } from './schemas/lifecycle.js';
import { EnabledModsResult, EnabledModsUpdate, MissionList, MissionPlaying, MissionUpload, ModList, PlayMissionRequest, PresetDiff, PresetQuery, PresetUpload, Rotation, RotationSaved, RotationUpdate, UploadedMission } from './schemas/missions.js';
import { FileNameParams, FileText, LogFile, LogPage, LogQuery, MetricsPoint, MetricsQuery } from './schemas/live.js';
import {
  Ban, BanIdParams, BanListQuery, CreateBanRequest, CreatedBan, KickRequest, PlayerBanRequest, PlayerHistoryPage,
  PlayerHistoryQuery, PlayerList, PlayerSlotParams, SayRequest,
} from './schemas/players.js';

/** A mission upload, at either of its two paths. */
const missionUpload = {
  method: 'POST', tag: 'missions', access: 'admin', capability: 'mission_manager', params: ServerIdParams, upload: true,
  body: MissionUpload, status: 201, response: UploadedMission,
  errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_FILENAME', 'ADAPTER_ERROR', 'FILE_TOO_LARGE', 'VALIDATION_ERROR'] as ErrorCode[],
} as const;

/** The HTTP contract, one entry per endpoint. */
export const endpoints = {
  // --- auth
  login: defineEndpoint({
    operationId: 'login', method: 'POST', path: '/auth/login', tag: 'auth', summary: 'Exchange credentials for a token',
    access: 'public', body: LoginRequest, status: 200, response: Type.Union([LoginResponse, MfaChallenge]), errors: ['UNAUTHORIZED', 'RATE_LIMITED'], rateLimit: 'login',
    notes: 'A user with two-factor sign-in gets an `MfaChallenge` instead of the token: the second step is POST /auth/login/2fa.',
  }),
  loginTwoFactor: defineEndpoint({
    operationId: 'loginTwoFactor', method: 'POST', path: '/auth/login/2fa', tag: 'auth', summary: 'The second step of a sign-in with two factors: the code',
    access: 'public', body: LoginSecondStepRequest, status: 200, response: LoginResponse, errors: ['UNAUTHORIZED', 'RATE_LIMITED'],
    // Codes are guessed as passwords are: the same limit per address, besides the account's own pause.
    rateLimit: 'login',
    notes: 'A first step\'s `mfa_token` is good for one successful second step. After 10 wrong codes in a row for an account (over any number of `mfa_token`s), its second steps pause: 429 `RATE_LIMITED` with `Retry-After`, 1 minute, doubling with each further wrong code up to an hour; a right code ends the count.',
  }),
  getTwoFactor: defineEndpoint({
    operationId: 'getTwoFactor', method: 'GET', path: '/auth/2fa', tag: 'auth', summary: 'Whether one has two-factor sign-in, and whether it is required',
    access: 'any', status: 200, response: TwoFactorStatus,
  }),
  setupTwoFactor: defineEndpoint({
    operationId: 'setupTwoFactor', method: 'POST', path: '/auth/2fa/setup', tag: 'auth', summary: 'Start enrolling: a new secret for the authenticator app',
    access: 'any', status: 200, response: TwoFactorSetup, errors: ['CONFLICT'],
  }),
  enableTwoFactor: defineEndpoint({
    operationId: 'enableTwoFactor', method: 'POST', path: '/auth/2fa/enable', tag: 'auth', summary: "Turn it on with the app's code; answers the recovery codes, once",
    access: 'any', body: TwoFactorCodeRequest, status: 200, response: RecoveryCodes, errors: ['CONFLICT', 'VALIDATION_ERROR'],
  }),
  disableTwoFactor: defineEndpoint({
    operationId: 'disableTwoFactor', method: 'POST', path: '/auth/2fa/disable', tag: 'auth', summary: 'Turn it off, with the password and a code',
    access: 'any', body: DisableTwoFactorRequest, status: 200, response: MessageResponse, errors: ['UNAUTHORIZED', 'CONFLICT'],
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
  listApiKeys: defineEndpoint({
    operationId: 'listApiKeys', method: 'GET', path: '/auth/keys', tag: 'auth', summary: "One's API keys (everyone's for an admin with ?all=true)",
    access: 'any', query: ApiKeyQuery, status: 200, response: Type.Array(ApiKey),
  }),
  createApiKey: defineEndpoint({
    operationId: 'createApiKey', method: 'POST', path: '/auth/keys', tag: 'auth', summary: 'Make an API key with some of one\'s rights; the key is shown once',
    access: 'any', body: CreateApiKeyRequest, status: 201, response: CreatedApiKey, errors: ['VALIDATION_ERROR', 'FORBIDDEN'],
  }),
  revokeApiKey: defineEndpoint({
    operationId: 'revokeApiKey', method: 'DELETE', path: '/auth/keys/{key_id}', tag: 'auth', summary: 'Revoke an API key (one\'s own; an admin, anyone\'s): refused at once everywhere',
    access: 'any', params: ApiKeyIdParams, status: 204, errors: ['NOT_FOUND'],
  }),
  listSessions: defineEndpoint({
    operationId: 'listSessions', method: 'GET', path: '/auth/sessions', tag: 'auth', summary: "One's open sign-in sessions: when, from where, with what",
    access: 'any', status: 200, response: Type.Array(Session),
  }),
  endSession: defineEndpoint({
    operationId: 'endSession', method: 'DELETE', path: '/auth/sessions/{session_id}', tag: 'auth', summary: 'End one of one\'s sessions: its token is refused at once',
    access: 'any', params: SessionIdParams, status: 204, errors: ['NOT_FOUND'],
  }),
  endAllSessions: defineEndpoint({
    operationId: 'endAllSessions', method: 'DELETE', path: '/auth/sessions', tag: 'auth', summary: 'Sign out everywhere: every one of one\'s sessions ends, this one too',
    access: 'any', status: 204,
  }),
  listUsers: defineEndpoint({
    operationId: 'listUsers', method: 'GET', path: '/auth/users', tag: 'auth', summary: 'List users',
    access: 'admin', status: 200, response: Type.Array(User),
  }),
  createUser: defineEndpoint({
    operationId: 'createUser', method: 'POST', path: '/auth/users', tag: 'auth', summary: 'Create a user',
    access: 'admin', body: CreateUserRequest, status: 201, response: CreatedUser, errors: ['CONFLICT'],
  }),
  updateUser: defineEndpoint({
    operationId: 'updateUser', method: 'PUT', path: '/auth/users/{user_id}', tag: 'auth',
    summary: "Change a user's role or set their password; their tokens end at once", access: 'admin', params: UserIdParams, body: UpdateUserRequest,
    status: 200, response: User, errors: ['NOT_FOUND'],
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
  getGameCommands: defineEndpoint({
    operationId: 'getGameCommands', method: 'GET', path: '/games/{game_type}/commands', tag: 'games',
    summary: "The game's remote-admin commands, as templates for a command line to offer", access: 'public', params: GameTypeParams,
    status: 200, response: GameCommands, errors: ['GAME_TYPE_NOT_FOUND'],
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
  getIntegrations: defineEndpoint({
    operationId: 'getIntegrations', method: 'GET', path: '/system/integrations', tag: 'system', summary: 'Whether Prometheus metrics are served, and where',
    access: 'admin', status: 200, response: Integrations,
  }),

  // --- webhooks (signed deliveries of what happens, Discord)
  listWebhooks: defineEndpoint({
    operationId: 'listWebhooks', method: 'GET', path: '/webhooks', tag: 'webhooks', summary: 'The webhook endpoints (URLs masked)',
    access: 'admin', status: 200, response: Type.Array(Webhook),
  }),
  createWebhook: defineEndpoint({
    operationId: 'createWebhook', method: 'POST', path: '/webhooks', tag: 'webhooks', summary: 'Add a webhook endpoint; its secret is shown once',
    access: 'admin', body: CreateWebhookRequest, status: 201, response: CreatedWebhook, errors: ['VALIDATION_ERROR'],
  }),
  getWebhook: defineEndpoint({
    operationId: 'getWebhook', method: 'GET', path: '/webhooks/{webhook_id}', tag: 'webhooks', summary: 'One webhook endpoint',
    access: 'admin', params: WebhookIdParams, status: 200, response: Webhook, errors: ['NOT_FOUND'],
  }),
  updateWebhook: defineEndpoint({
    operationId: 'updateWebhook', method: 'PUT', path: '/webhooks/{webhook_id}', tag: 'webhooks', summary: 'Change a webhook endpoint (enabling it again clears why it was disabled)',
    access: 'admin', params: WebhookIdParams, body: UpdateWebhookRequest, status: 200, response: Webhook, errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  deleteWebhook: defineEndpoint({
    operationId: 'deleteWebhook', method: 'DELETE', path: '/webhooks/{webhook_id}', tag: 'webhooks', summary: 'Remove a webhook endpoint and its delivery log',
    access: 'admin', params: WebhookIdParams, status: 204, errors: ['NOT_FOUND'],
  }),
  rotateWebhookSecret: defineEndpoint({
    operationId: 'rotateWebhookSecret', method: 'POST', path: '/webhooks/{webhook_id}/rotate-secret', tag: 'webhooks', summary: 'A new secret; the previous one stays valid for 24 h',
    access: 'admin', params: WebhookIdParams, status: 200, response: RotatedSecret, errors: ['NOT_FOUND'],
  }),
  testWebhook: defineEndpoint({
    operationId: 'testWebhook', method: 'POST', path: '/webhooks/{webhook_id}/test', tag: 'webhooks', summary: 'Send a webhook.test delivery now',
    access: 'admin', params: WebhookIdParams, status: 202, response: WebhookDelivery, errors: ['NOT_FOUND'],
  }),
  listWebhookDeliveries: defineEndpoint({
    operationId: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/{webhook_id}/deliveries', tag: 'webhooks', summary: 'The delivery log of an endpoint, newest first',
    access: 'admin', params: WebhookIdParams, query: WebhookDeliveryQuery, status: 200, response: WebhookDeliveryPage, errors: ['NOT_FOUND'],
  }),
  redeliverWebhookDelivery: defineEndpoint({
    operationId: 'redeliverWebhookDelivery', method: 'POST', path: '/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', tag: 'webhooks',
    summary: 'Send a delivery again (same webhook-id), whatever became of it',
    access: 'admin', params: WebhookDeliveryParams, status: 202, response: WebhookDelivery, errors: ['NOT_FOUND'],
  }),

  // --- nodes (the instances of a cluster; one for a single instance)
  listNodes: defineEndpoint({
    operationId: 'listNodes', method: 'GET', path: '/nodes', tag: 'nodes', summary: 'The Garrison instances and whether each is alive',
    access: 'any', status: 200, response: Type.Array(ClusterNode),
  }),
  updateNode: defineEndpoint({
    operationId: 'updateNode', method: 'PUT', path: '/nodes/{node_id}', tag: 'nodes', summary: 'Drain a node (no new servers placed on it) or undrain it',
    access: 'admin', params: NodeIdParams, body: UpdateNodeRequest, status: 200, response: ClusterNode, errors: ['NOT_FOUND'],
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
  importServer: defineEndpoint({
    operationId: 'importServer', method: 'POST', path: '/servers/import', tag: 'servers', summary: 'Adopt an existing installation: its config, ports, mods, bans and missions',
    notes:
      'Reads the files of a server that ran without Garrison (server.cfg, basic.cfg, the profile, BattlEye\'s config and bans.txt, the start command line), all inside the folder of `exe_path`, ' +
      'and makes a Garrison server of them. With `dry_run` it answers the plan (200) and writes nothing; otherwise it makes the server (201) and answers the same report, ' +
      'with the server made and the credentials read (shown only here). A file that is not the game\'s syntax answers `INVALID_CONFIG` with its file, line and column (never its text). ' +
      'Every key of every file read is in the plan: in a section field, as an extra line, or in `refused` with its reason. A mod not installed is listed and not enabled. ' +
      'The ports are those the installation\'s files name (the adapter reads them) unless `game_port`/`rcon_port` are given; a port another server or another process of the host holds is a line of a dry run\'s `warnings` (`PORT_IN_USE: …`) and 409 `PORT_IN_USE` for the import. ' +
      'With `GARRISON_GAME_ROOTS` set, the executable and every file read must be inside one of them; the service\'s own folders never, nor a file in the folder of another installation Garrison runs. An installation a server of this node runs already is imported beside it (`shares_installation` in `warnings`) without the passwords its files hold, which may be that server\'s: new ones are made. ' +
      'A signed-in admin\'s act: no API key scope grants it.',
    access: 'admin', body: ImportServerRequest, status: 201, dryRunStatus: 200, response: ImportPlan,
    errors: ['EXE_NOT_ALLOWED', 'PORT_IN_USE', 'INVALID_CONFIG', 'CONFLICT'],
  }),
  getServer: defineEndpoint({
    operationId: 'getServer', method: 'GET', path: '/servers/{server_id}', tag: 'servers', summary: 'One server',
    access: 'any', params: ServerIdParams, status: 200, response: ServerDetail, errors: ['NOT_FOUND'],
  }),
  updateServer: defineEndpoint({
    operationId: 'updateServer', onOwner: true, method: 'PUT', path: '/servers/{server_id}', tag: 'servers', summary: 'Change a server',
    access: 'admin', params: ServerIdParams, body: UpdateServerRequest, status: 200, response: ServerDetail,
    errors: ['NOT_FOUND', 'EXE_NOT_ALLOWED', 'PORT_IN_USE'],
  }),
  deleteServer: defineEndpoint({
    operationId: 'deleteServer', onOwner: true, method: 'DELETE', path: '/servers/{server_id}', tag: 'servers', summary: 'Delete a stopped server',
    access: 'admin', params: ServerIdParams, status: 204, errors: ['NOT_FOUND', 'SERVER_NOT_STOPPED'],
  }),

  // --- lifecycle
  startServer: defineEndpoint({
    operationId: 'startServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/start', tag: 'lifecycle', summary: 'Start the game process',
    access: 'admin', params: ServerIdParams, status: 200, response: StartResponse,
    errors: ['NOT_FOUND', 'EXE_NOT_ALLOWED', 'EXE_NOT_FOUND', 'INVALID_CONFIG', 'SERVER_ALREADY_RUNNING', 'PORT_IN_USE', 'CONFIG_WRITE_ERROR'],
  }),
  stopServer: defineEndpoint({
    operationId: 'stopServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/stop', tag: 'lifecycle',
    summary: 'Stop the game: shutdown through remote admin, killed after 30 s (at once with force)', access: 'admin',
    params: ServerIdParams, body: StopRequest, bodyOptional: true, status: 200, response: StoppedResponse,
    errors: ['NOT_FOUND', 'SERVER_NOT_RUNNING'],
  }),
  restartServer: defineEndpoint({
    operationId: 'restartServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/restart', tag: 'lifecycle', summary: 'Stop, then start',
    access: 'admin', params: ServerIdParams, status: 200, response: StartResponse,
    errors: ['NOT_FOUND', 'SERVER_NOT_RUNNING', 'EXE_NOT_ALLOWED', 'EXE_NOT_FOUND', 'INVALID_CONFIG', 'PORT_IN_USE', 'CONFIG_WRITE_ERROR'],
  }),
  killServer: defineEndpoint({
    operationId: 'killServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/kill', tag: 'lifecycle', summary: 'Kill the game process at once',
    access: 'admin', params: ServerIdParams, status: 200, response: StoppedResponse, errors: ['NOT_FOUND', 'SERVER_NOT_RUNNING'],
  }),
  listProcesses: defineEndpoint({
    operationId: 'listProcesses', method: 'GET', path: '/servers/{server_id}/processes', tag: 'lifecycle',
    summary: 'The processes of the server: the game server itself and its headless clients, with their state, CPU and memory', access: 'any',
    params: ServerIdParams, status: 200, response: Type.Array(ProcessInfo), errors: ['NOT_FOUND'],
  }),
  listServerEvents: defineEndpoint({
    operationId: 'listServerEvents', method: 'GET', path: '/servers/{server_id}/events', tag: 'lifecycle',
    summary: 'Audit trail: who did what to the server, and what the supervisor did by itself', access: 'any',
    params: ServerIdParams, query: AuditQuery, status: 200, response: AuditPage, errors: ['NOT_FOUND'],
  }),

  // --- live data
  listLogs: defineEndpoint({
    operationId: 'listLogs', method: 'GET', path: '/servers/{server_id}/logs', tag: 'live', summary: 'Stored log lines of the game, newest first',
    access: 'any', params: ServerIdParams, query: LogQuery, status: 200, response: LogPage, errors: ['NOT_FOUND'],
  }),
  clearLogs: defineEndpoint({
    operationId: 'clearLogs', method: 'DELETE', path: '/servers/{server_id}/logs', tag: 'live', summary: 'Delete the stored log lines',
    access: 'admin', params: ServerIdParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND'],
  }),
  getMetrics: defineEndpoint({
    operationId: 'getMetrics', method: 'GET', path: '/servers/{server_id}/metrics', tag: 'live',
    summary: 'CPU, memory and players over time, averaged per `resolution` minutes', access: 'any', params: ServerIdParams,
    query: MetricsQuery, status: 200, response: Type.Array(MetricsPoint), errors: ['NOT_FOUND'],
  }),

  listLogFiles: defineEndpoint({
    operationId: 'listLogFiles', onOwner: true, method: 'GET', path: '/servers/{server_id}/logfiles', tag: 'live', summary: "The game's log files",
    access: 'any', capability: 'log_parser', params: ServerIdParams, status: 200, response: Type.Array(LogFile), errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  downloadLogFile: defineEndpoint({
    operationId: 'downloadLogFile', onOwner: true, method: 'GET', path: '/servers/{server_id}/logfiles/{filename}/download', tag: 'live',
    summary: 'One log file, as text', access: 'any', capability: 'log_parser', params: FileNameParams, status: 200, response: FileText,
    envelope: 'none', responseMediaType: 'text/plain', errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR'],
  }),
  deleteLogFile: defineEndpoint({
    operationId: 'deleteLogFile', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/logfiles/{filename}', tag: 'live',
    summary: 'Delete a log file (not the one the running game writes)', access: 'admin', capability: 'log_parser', params: FileNameParams,
    status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'CONFLICT'],
  }),

  // --- missions
  listMissions: defineEndpoint({
    operationId: 'listMissions', onOwner: true, method: 'GET', path: '/servers/{server_id}/missions', tag: 'missions', summary: 'Mission files on the server',
    access: 'any', capability: 'mission_manager', params: ServerIdParams, status: 200, response: MissionList, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  uploadMission: defineEndpoint({
    ...missionUpload,
    operationId: 'uploadMission', onOwner: true, path: '/servers/{server_id}/missions', summary: 'Upload a mission file (multipart part `file`), streamed to disk',
  }),
  uploadMissionAlias: defineEndpoint({
    ...missionUpload,
    operationId: 'uploadMissionAlias', onOwner: true, path: '/servers/{server_id}/missions/upload', summary: 'The same upload, at the path of the design-stage variant',
  }),
  getRotation: defineEndpoint({
    operationId: 'getRotation', method: 'GET', path: '/servers/{server_id}/missions/rotation', tag: 'missions', summary: 'The mission rotation',
    access: 'any', capability: 'mission_manager', params: ServerIdParams, status: 200, response: Rotation, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  setRotation: defineEndpoint({
    operationId: 'setRotation', onOwner: true, method: 'PUT', path: '/servers/{server_id}/missions/rotation', tag: 'missions',
    summary: "Replace the rotation (guarded by the server section's config_version)", access: 'admin', capability: 'mission_manager',
    params: ServerIdParams, body: RotationUpdate, status: 200, response: RotationSaved,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'CONFIG_VERSION_CONFLICT', 'VALIDATION_ERROR'],
  }),
  playMission: defineEndpoint({
    operationId: 'playMission', onOwner: true, method: 'POST', path: '/servers/{server_id}/missions/play', tag: 'missions',
    summary: 'Play an installed mission now, in the game\'s own command for it (the players are taken to it at once)',
    notes: 'The adapter names the command, sent over remote admin. The rotation is not changed: the next mission after this one is the game\'s choice. Audited as `mission_played`.',
    access: 'admin', capability: 'mission_manager', params: ServerIdParams, body: PlayMissionRequest, status: 200, response: MissionPlaying,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'SERVER_NOT_RUNNING', 'NO_RCON_PASSWORD', 'RCON_ERROR'],
  }),
  deleteMission: defineEndpoint({
    operationId: 'deleteMission', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/missions/{filename}', tag: 'missions',
    summary: 'Delete a mission file that is not in the rotation', access: 'admin', capability: 'mission_manager', params: FileNameParams,
    status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'MISSION_IN_ROTATION', 'VALIDATION_ERROR'],
  }),

  // --- mods
  listMods: defineEndpoint({
    operationId: 'listMods', onOwner: true, method: 'GET', path: '/servers/{server_id}/mods', tag: 'mods', summary: "The mod folders beside the server's executable",
    access: 'any', capability: 'mod_manager', params: ServerIdParams, status: 200, response: ModList, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  setEnabledMods: defineEndpoint({
    operationId: 'setEnabledMods', onOwner: true, method: 'PUT', path: '/servers/{server_id}/mods/enabled', tag: 'mods',
    summary: 'Replace the enabled mods (each a client or server mod); they load at the next start', access: 'admin', capability: 'mod_manager',
    params: ServerIdParams, body: EnabledModsUpdate, status: 200, response: EnabledModsResult,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'VERSION_CONFLICT'],
  }),
  importModPreset: defineEndpoint({
    operationId: 'importModPreset', onOwner: true, method: 'POST', path: '/servers/{server_id}/mods/preset', tag: 'mods',
    summary: 'Compare a launcher preset with the installed and enabled mods; with apply=true, enable its installed mods',
    notes: 'The preset HTML as the body (text/html) or as the multipart part `file`, 1 MiB at most. Workshop mods are matched by the id in their folder\'s meta.cpp, local mods by folder name.',
    access: 'admin', capability: 'mod_manager', params: ServerIdParams, query: PresetQuery, upload: true, body: PresetUpload, status: 200, response: PresetDiff,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'FILE_TOO_LARGE', 'VERSION_CONFLICT'],
  }),
  exportModPreset: defineEndpoint({
    operationId: 'exportModPreset', onOwner: true, method: 'GET', path: '/servers/{server_id}/mods/preset', tag: 'mods',
    summary: "The enabled client mods as a launcher preset, for the server's players", access: 'any', capability: 'mod_manager',
    params: ServerIdParams, status: 200, response: Type.String(), envelope: 'none', responseMediaType: 'text/html', errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),

  // --- schedules
  listSchedules: defineEndpoint({
    operationId: 'listSchedules', method: 'GET', path: '/servers/{server_id}/schedules', tag: 'schedules', summary: "The server's schedules, with their next runs",
    access: 'any', params: ServerIdParams, status: 200, response: Type.Array(Schedule), errors: ['NOT_FOUND'],
  }),
  createSchedule: defineEndpoint({
    operationId: 'createSchedule', method: 'POST', path: '/servers/{server_id}/schedules', tag: 'schedules',
    summary: 'Schedule steps (restarts with in-game warnings, commands, waits) on a cron expression in a time zone',
    notes: 'The cron time is when the action happens: give `steps` (offsets in seconds from that time; negative offsets run before it) or a `template` ("restart_with_warnings": the restart at the cron time, the warnings before it). The cron expression and the time zone are checked (400 naming each field that is wrong, each also in `details`); the answer holds the expanded steps and the next five runs.',
    access: 'admin', params: ServerIdParams, body: CreateScheduleRequest, status: 201, response: Schedule, errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  getSchedule: defineEndpoint({
    operationId: 'getSchedule', method: 'GET', path: '/servers/{server_id}/schedules/{schedule_id}', tag: 'schedules', summary: 'One schedule',
    access: 'any', params: ScheduleIdParams, status: 200, response: Schedule, errors: ['NOT_FOUND'],
  }),
  updateSchedule: defineEndpoint({
    operationId: 'updateSchedule', method: 'PUT', path: '/servers/{server_id}/schedules/{schedule_id}', tag: 'schedules',
    summary: 'Change a schedule; a change of its timing counts from now, and enabling it again clears why it was disabled',
    access: 'admin', params: ScheduleIdParams, body: UpdateScheduleRequest, status: 200, response: Schedule, errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  deleteSchedule: defineEndpoint({
    operationId: 'deleteSchedule', method: 'DELETE', path: '/servers/{server_id}/schedules/{schedule_id}', tag: 'schedules', summary: 'Delete a schedule and its history',
    access: 'admin', params: ScheduleIdParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND'],
  }),
  runSchedule: defineEndpoint({
    operationId: 'runSchedule', onOwner: true, method: 'POST', path: '/servers/{server_id}/schedules/{schedule_id}/run', tag: 'schedules',
    summary: "Run a schedule's steps now, whatever its conditions", access: 'admin', params: ScheduleIdParams, status: 202, response: RunStarted, errors: ['NOT_FOUND'],
  }),
  listScheduleRuns: defineEndpoint({
    operationId: 'listScheduleRuns', method: 'GET', path: '/servers/{server_id}/schedules/{schedule_id}/runs', tag: 'schedules',
    summary: "A schedule's runs, newest first, with each step's outcome", access: 'any', params: ScheduleIdParams, query: ScheduleRunQuery,
    status: 200, response: ScheduleRunPage, errors: ['NOT_FOUND'],
  }),

  // --- backups
  listBackups: defineEndpoint({
    operationId: 'listBackups', method: 'GET', path: '/servers/{server_id}/backups', tag: 'backups', summary: "The server's backups, newest first",
    access: 'any', params: ServerIdParams, status: 200, response: Type.Array(Backup), errors: ['NOT_FOUND'],
  }),
  createBackup: defineEndpoint({
    operationId: 'createBackup', onOwner: true, method: 'POST', path: '/servers/{server_id}/backups', tag: 'backups',
    summary: "Back up the server's state (profile, generated files, BattlEye's folder with the bans; missions when asked)",
    notes: 'Answers at once with the backup, `running`; `backup` events follow its progress, and its status becomes `done` (with size and SHA-256) or `failed` (with the reason). A running server may be backed up: the manifest says so.',
    access: 'admin', params: ServerIdParams, body: CreateBackupRequest, bodyOptional: true, status: 202, response: Backup, errors: ['NOT_FOUND'],
  }),
  getBackup: defineEndpoint({
    operationId: 'getBackup', method: 'GET', path: '/servers/{server_id}/backups/{backup_id}', tag: 'backups', summary: 'One backup, with its manifest (secrets masked)',
    access: 'any', params: BackupIdParams, status: 200, response: BackupDetail, errors: ['NOT_FOUND'],
  }),
  downloadBackup: defineEndpoint({
    operationId: 'downloadBackup', onOwner: true, method: 'GET', path: '/servers/{server_id}/backups/{backup_id}/download', tag: 'backups',
    summary: 'The archive (tar.gz, streamed); it holds the config with its secrets', access: 'admin', params: BackupIdParams,
    status: 200, response: Type.String({ format: 'binary' }), envelope: 'none', responseMediaType: 'application/gzip', errors: ['NOT_FOUND', 'CONFLICT'],
  }),
  updateBackup: defineEndpoint({
    operationId: 'updateBackup', method: 'PUT', path: '/servers/{server_id}/backups/{backup_id}', tag: 'backups', summary: 'Lock a backup (never pruned nor deleted) or change its note',
    access: 'admin', params: BackupIdParams, body: UpdateBackupRequest, status: 200, response: Backup, errors: ['NOT_FOUND'],
  }),
  restoreBackup: defineEndpoint({
    operationId: 'restoreBackup', onOwner: true, method: 'POST', path: '/servers/{server_id}/backups/{backup_id}/restore', tag: 'backups',
    summary: "Put a backup back: the server's files and config sections as they were (the server must be stopped)",
    notes: 'The checksum is verified first; the archive is extracted beside the server\'s folders and swapped in by renames; a failed restore leaves everything as it was.',
    access: 'admin', params: BackupIdParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'SERVER_NOT_STOPPED', 'CONFLICT', 'VALIDATION_ERROR'],
  }),
  deleteBackup: defineEndpoint({
    operationId: 'deleteBackup', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/backups/{backup_id}', tag: 'backups', summary: 'Delete a backup and its archive (not while locked)',
    access: 'admin', params: BackupIdParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'CONFLICT'],
  }),

  // --- players and bans
  listPlayers: defineEndpoint({
    operationId: 'listPlayers', onOwner: true, method: 'GET', path: '/servers/{server_id}/players', tag: 'players', summary: 'Players on the server now',
    access: 'any', params: ServerIdParams, status: 200, response: PlayerList, errors: ['NOT_FOUND'],
  }),
  playerHistory: defineEndpoint({
    operationId: 'playerHistory', method: 'GET', path: '/servers/{server_id}/players/history', tag: 'players',
    summary: 'Who was on the server, and when', access: 'any', params: ServerIdParams, query: PlayerHistoryQuery, status: 200,
    response: PlayerHistoryPage, errors: ['NOT_FOUND'],
  }),
  kickPlayer: defineEndpoint({
    operationId: 'kickPlayer', onOwner: true, method: 'POST', path: '/servers/{server_id}/players/{slot_id}/kick', tag: 'players',
    summary: 'Kick the player in a slot', access: 'admin', capability: 'remote_admin', params: PlayerSlotParams, body: KickRequest,
    status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'SERVER_NOT_RUNNING', 'NO_RCON_PASSWORD', 'RCON_ERROR'],
  }),
  banPlayer: defineEndpoint({
    operationId: 'banPlayer', onOwner: true, method: 'POST', path: '/servers/{server_id}/players/{slot_id}/ban', tag: 'players',
    summary: 'Ban the player in a slot by GUID, and kick them', access: 'admin', capability: 'remote_admin', params: PlayerSlotParams,
    body: PlayerBanRequest, status: 201, response: Ban,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'SERVER_NOT_RUNNING', 'NO_RCON_PASSWORD', 'RCON_ERROR', 'VALIDATION_ERROR'],
  }),
  listBans: defineEndpoint({
    operationId: 'listBans', method: 'GET', path: '/servers/{server_id}/bans', tag: 'bans', summary: 'Bans of the server (active ones by default)',
    access: 'any', params: ServerIdParams, query: BanListQuery, status: 200, response: Type.Array(Ban), errors: ['NOT_FOUND'],
  }),
  createBan: defineEndpoint({
    operationId: 'createBan', onOwner: true, method: 'POST', path: '/servers/{server_id}/bans', tag: 'bans', summary: 'Ban a GUID or an IP address',
    access: 'admin', params: ServerIdParams, body: CreateBanRequest, status: 201, response: CreatedBan, errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  revokeBan: defineEndpoint({
    operationId: 'revokeBan', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/bans/{ban_id}', tag: 'bans', summary: 'Revoke a ban',
    access: 'admin', params: BanIdParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND'],
  }),
  rconSay: defineEndpoint({
    operationId: 'rconSay', onOwner: true, method: 'POST', path: '/servers/{server_id}/rcon/say', tag: 'rcon', summary: 'Send a message to every player',
    access: 'admin', capability: 'remote_admin', params: ServerIdParams, body: SayRequest, status: 200, response: MessageResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_RCON_PASSWORD', 'SERVER_NOT_RUNNING', 'RCON_ERROR'],
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
  downloadConfigFile: defineEndpoint({
    operationId: 'downloadConfigFile', method: 'GET', path: '/servers/{server_id}/config/download/{filename}', tag: 'config',
    summary: 'One generated config file, as text (may hold plaintext credentials)', access: 'admin', capability: 'config_generator',
    params: FileNameParams, status: 200, response: FileText, envelope: 'none', responseMediaType: 'text/plain',
    errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  updateConfigSection: defineEndpoint({
    operationId: 'updateConfigSection', method: 'PUT', path: '/servers/{server_id}/config/{section}', tag: 'config',
    summary: 'Change some fields of a section', access: 'admin', params: ConfigSectionParams, body: ConfigSectionUpdate,
    invalidBodyCode: 'INVALID_CONFIG', status: 200, response: ConfigSectionRead,
    errors: ['NOT_FOUND', 'CONFIG_VERSION_CONFLICT', 'INVALID_CONFIG', 'PORT_IN_USE'],
  }),

  // --- remote admin
  rconCommand: defineEndpoint({
    operationId: 'rconCommand', onOwner: true, method: 'POST', path: '/servers/{server_id}/rcon/command', tag: 'rcon',
    summary: 'Run a remote-admin command on a running server', access: 'admin', capability: 'remote_admin',
    params: ServerIdParams, body: RconCommandRequest, status: 200, response: RconCommandResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_RCON_PASSWORD', 'SERVER_NOT_RUNNING', 'RCON_ERROR'],
  }),

  ...auditEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;
