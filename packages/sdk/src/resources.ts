import { MAX_PAGE_SIZE, type BodyOf, type Endpoints, type QueryOf } from '@garrison/core';
import type { CallFn, CallResult, GarrisonClient } from './client.js';
import { multipartBody, type UploadOptions, type UploadSource } from './upload.js';
import { browserUploads } from './form-upload.js';

type Body<K extends keyof Endpoints> = NonNullable<BodyOf<Endpoints[K]>>;
type Query<K extends keyof Endpoints> = Partial<QueryOf<Endpoints[K]>>;
type Result<K extends keyof Endpoints> = Promise<CallResult<Endpoints[K]>>;
/** A config section's own fields: they are the game's, so the contract types them loosely. */
export type SectionPatch = Record<string, unknown>;

/** The calls grouped by resource, with positional ids: `client.servers.start(id)`. */
export function resources(c: { call: CallFn; read: GarrisonClient['read'] }) {
  const server = (server_id: number) => ({ server_id });
  return {
    auth: {
      logout: (): Result<'logout'> => c.call('logout'),
      me: (): Result<'me'> => c.call('me'),
      changePassword: (current_password: string, new_password: string): Result<'changePassword'> =>
        c.call('changePassword', { body: { current_password, new_password } }),
      /** One's open sessions (`current` marks this client's). */
      sessions: (): Result<'listSessions'> => c.call('listSessions'),
      endSession: (session_id: string): Result<'endSession'> => c.call('endSession', { params: { session_id } }),
      /** Sign out everywhere, this client too. */
      endAllSessions: (): Result<'endAllSessions'> => c.call('endAllSessions'),
      /** Two-factor sign-in (TOTP): `setup()` gives the secret and its otpauth URL, `enable(code)` the recovery codes. */
      twoFactor: {
        status: (): Result<'getTwoFactor'> => c.call('getTwoFactor'),
        setup: (): Result<'setupTwoFactor'> => c.call('setupTwoFactor'),
        enable: (code: string): Result<'enableTwoFactor'> => c.call('enableTwoFactor', { body: { code } }),
        disable: (password: string, code: string): Result<'disableTwoFactor'> => c.call('disableTwoFactor', { body: { password, code } }),
      },
    },
    /** API keys for bots: `new GarrisonClient({ baseUrl, token: key })` acts with one. */
    keys: {
      /** One's own keys; `{ all: true }`: everyone's (admins). */
      list: (query: Query<'listApiKeys'> = {}): Result<'listApiKeys'> => c.call('listApiKeys', { query }),
      /** The answer carries the `key` this once. */
      create: (body: Body<'createApiKey'>): Result<'createApiKey'> => c.call('createApiKey', { body }),
      revoke: (key_id: number): Result<'revokeApiKey'> => c.call('revokeApiKey', { params: { key_id } }),
    },
    users: {
      list: (): Result<'listUsers'> => c.call('listUsers'),
      create: (body: Body<'createUser'>): Result<'createUser'> => c.call('createUser', { body }),
      update: (user_id: number, body: Body<'updateUser'>): Result<'updateUser'> => c.call('updateUser', { params: { user_id }, body }),
      delete: (user_id: number): Result<'deleteUser'> => c.call('deleteUser', { params: { user_id } }),
    },
    games: {
      list: (): Result<'listGames'> => c.call('listGames'),
      get: (game_type: string): Result<'getGame'> => c.call('getGame', { params: { game_type } }),
      configSchema: (game_type: string): Result<'getGameConfigSchema'> => c.call('getGameConfigSchema', { params: { game_type } }),
      commands: (game_type: string): Result<'getGameCommands'> => c.call('getGameCommands', { params: { game_type } }),
      defaults: (game_type: string): Result<'getGameDefaults'> => c.call('getGameDefaults', { params: { game_type } }),
    },
    system: {
      health: (): Result<'health'> => c.call('health'),
      status: (): Result<'systemStatus'> => c.call('systemStatus'),
      /** Whether Prometheus metrics are served, and where (admins). */
      integrations: (): Result<'getIntegrations'> => c.call('getIntegrations'),
    },
    /** Signed deliveries of what happens (Standard Webhooks) and Discord channels (admins). */
    webhooks: {
      list: (): Result<'listWebhooks'> => c.call('listWebhooks'),
      /** The answer carries the endpoint's `secret` this once. */
      create: (body: Body<'createWebhook'>): Result<'createWebhook'> => c.call('createWebhook', { body }),
      get: (webhook_id: number): Result<'getWebhook'> => c.call('getWebhook', { params: { webhook_id } }),
      update: (webhook_id: number, body: Body<'updateWebhook'>): Result<'updateWebhook'> => c.call('updateWebhook', { params: { webhook_id }, body }),
      delete: (webhook_id: number): Result<'deleteWebhook'> => c.call('deleteWebhook', { params: { webhook_id } }),
      /** A new secret; the previous one keeps signing for 24 h. */
      rotateSecret: (webhook_id: number): Result<'rotateWebhookSecret'> => c.call('rotateWebhookSecret', { params: { webhook_id } }),
      test: (webhook_id: number): Result<'testWebhook'> => c.call('testWebhook', { params: { webhook_id } }),
      deliveries: (webhook_id: number, query: Query<'listWebhookDeliveries'> = {}): Result<'listWebhookDeliveries'> =>
        c.call('listWebhookDeliveries', { params: { webhook_id }, query }),
      redeliver: (webhook_id: number, delivery_id: number): Result<'redeliverWebhookDelivery'> =>
        c.call('redeliverWebhookDelivery', { params: { webhook_id, delivery_id } }),
    },
    /** The service's audit trail (admins): who did what, to which server, user, key, webhook or node. */
    audit: {
      /** Newest first, one page; filters: actor, actor_kind, server_id, target_kind, event_type, since, until. */
      list: (query: Query<'listAudit'> = {}): Result<'listAudit'> => c.call('listAudit', { query }),
      /** Every matching entry, oldest first, as JSON lines (one `AuditEntry` a line), streamed. */
      export: (query: Omit<Query<'listAudit'>, 'format' | 'limit' | 'offset'> = {}) => c.read('listAudit', {}, { ...query, format: 'jsonl' }),
    },
    /** The Garrison instances (nodes) of a cluster; one for a single instance. */
    nodes: {
      list: (): Result<'listNodes'> => c.call('listNodes'),
      /** Draining: no new servers are placed on the node. */
      update: (node_id: string, body: Body<'updateNode'>): Result<'updateNode'> => c.call('updateNode', { params: { node_id }, body }),
    },
    servers: {
      list: (query: Query<'listServers'> = {}): Result<'listServers'> => c.call('listServers', { query }),
      /** Every server, page after page (`list` answers one page: 50 servers unless `limit` says otherwise). */
      all: async (query: Omit<Query<'listServers'>, 'limit' | 'offset'> = {}): Result<'listServers'> => {
        const every: CallResult<Endpoints['listServers']> = [];
        for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
          const page = await c.call('listServers', { query: { ...query, limit: MAX_PAGE_SIZE, offset } });
          every.push(...page);
          if (page.length < MAX_PAGE_SIZE) return every;
        }
      },
      create: (body: Body<'createServer'>): Result<'createServer'> => c.call('createServer', { body }),
      /** Adopts an existing installation; with `dry_run: true`, only the plan (nothing written). */
      import: (body: Body<'importServer'>): Result<'importServer'> => c.call('importServer', { body }),
      get: (id: number): Result<'getServer'> => c.call('getServer', { params: server(id) }),
      update: (id: number, body: Body<'updateServer'>): Result<'updateServer'> => c.call('updateServer', { params: server(id), body }),
      delete: (id: number): Result<'deleteServer'> => c.call('deleteServer', { params: server(id) }),
      start: (id: number): Result<'startServer'> => c.call('startServer', { params: server(id) }),
      stop: (id: number, options?: Body<'stopServer'>): Result<'stopServer'> => c.call('stopServer', { params: server(id), body: options }),
      restart: (id: number): Result<'restartServer'> => c.call('restartServer', { params: server(id) }),
      kill: (id: number): Result<'killServer'> => c.call('killServer', { params: server(id) }),
      events: (id: number, query: Query<'listServerEvents'> = {}): Result<'listServerEvents'> => c.call('listServerEvents', { params: server(id), query }),
      /** The game server's process and its headless clients'. */
      processes: (id: number): Result<'listProcesses'> => c.call('listProcesses', { params: server(id) }),
    },
    logs: {
      list: (id: number, query: Query<'listLogs'> = {}): Result<'listLogs'> => c.call('listLogs', { params: server(id), query }),
      clear: (id: number): Result<'clearLogs'> => c.call('clearLogs', { params: server(id) }),
      files: (id: number): Result<'listLogFiles'> => c.call('listLogFiles', { params: server(id) }),
      download: (id: number, filename: string): Result<'downloadLogFile'> => c.call('downloadLogFile', { params: { server_id: id, filename } }),
      /** The same file as a stream of bytes, read as it arrives (cancel it to stop reading). */
      read: (id: number, filename: string) => c.read('downloadLogFile', { server_id: id, filename }),
      deleteFile: (id: number, filename: string): Result<'deleteLogFile'> => c.call('deleteLogFile', { params: { server_id: id, filename } }),
    },
    metrics: {
      get: (id: number, query: Query<'getMetrics'> = {}): Result<'getMetrics'> => c.call('getMetrics', { params: server(id), query }),
    },
    missions: {
      list: (id: number): Result<'listMissions'> => c.call('listMissions', { params: server(id) }),
      /**
       * Uploads a mission file from a Blob or File, a path (Node) or a stream, streamed as it is read,
       * with progress; `filename` defaults to a path's base name. In a browser a Blob goes through
       * XMLHttpRequest, the one way there to stream a file with upload progress over HTTP/1.1.
       */
      upload: async (id: number, source: UploadSource, filename?: string, options: UploadOptions = {}): Result<'uploadMission'> => {
        const name = filename ?? (typeof source === 'string' ? source.split(/[\\/]/).pop() : (source as { name?: string }).name);
        if (!name) throw new TypeError('missions.upload needs a file name for a source that has none');
        if (source instanceof Blob && browserUploads()) {
          const form = new FormData();
          form.append('file', source, name);
          return c.call('uploadMission', { params: server(id), body: form, onProgress: options.onProgress });
        }
        const { body, contentType } = await multipartBody(source, name, options);
        return c.call('uploadMission', { params: server(id), body: { stream: body, contentType } });
      },
      rotation: (id: number): Result<'getRotation'> => c.call('getRotation', { params: server(id) }),
      setRotation: (id: number, missions: Body<'setRotation'>['missions'], config_version: number): Result<'setRotation'> =>
        c.call('setRotation', { params: server(id), body: { missions, config_version } }),
      delete: (id: number, filename: string): Result<'deleteMission'> => c.call('deleteMission', { params: { server_id: id, filename } }),
      /** Plays an installed mission now (the game's own command; the rotation is left as it is). */
      play: (id: number, name: string, difficulty?: string): Result<'playMission'> => c.call('playMission', { params: server(id), body: { name, ...(difficulty ? { difficulty } : {}) } }),
    },
    mods: {
      list: (id: number): Result<'listMods'> => c.call('listMods', { params: server(id) }),
      setEnabled: (id: number, body: Body<'setEnabledMods'>): Result<'setEnabledMods'> => c.call('setEnabledMods', { params: server(id), body }),
      /** A launcher preset (its HTML, as text or a Blob) against the server's mods; `apply` enables its installed mods. */
      importPreset: async (id: number, preset: string | Blob, options: { apply?: boolean } = {}): Result<'importModPreset'> => {
        // A form, in a browser and in Node alike: a browser's fetch cannot stream a request body over HTTP/1.1.
        const form = new FormData();
        form.append('file', typeof preset === 'string' ? new Blob([preset], { type: 'text/html' }) : preset, 'preset.html');
        return c.call('importModPreset', { params: server(id), query: options.apply ? { apply: true } : {}, body: form });
      },
      /** The enabled client mods as a launcher preset (HTML). */
      exportPreset: (id: number): Result<'exportModPreset'> => c.call('exportModPreset', { params: server(id) }),
    },
    schedules: {
      list: (id: number): Result<'listSchedules'> => c.call('listSchedules', { params: server(id) }),
      /** Steps at offsets from the cron time (negative: before it), or a `template` ("restart_with_warnings"); answers the next five runs. */
      create: (id: number, body: Body<'createSchedule'>): Result<'createSchedule'> => c.call('createSchedule', { params: server(id), body }),
      get: (id: number, schedule_id: number): Result<'getSchedule'> => c.call('getSchedule', { params: { server_id: id, schedule_id } }),
      update: (id: number, schedule_id: number, body: Body<'updateSchedule'>): Result<'updateSchedule'> => c.call('updateSchedule', { params: { server_id: id, schedule_id }, body }),
      delete: (id: number, schedule_id: number): Result<'deleteSchedule'> => c.call('deleteSchedule', { params: { server_id: id, schedule_id } }),
      /** Runs the steps now, whatever the schedule's conditions. */
      run: (id: number, schedule_id: number): Result<'runSchedule'> => c.call('runSchedule', { params: { server_id: id, schedule_id } }),
      runs: (id: number, schedule_id: number, query: Query<'listScheduleRuns'> = {}): Result<'listScheduleRuns'> =>
        c.call('listScheduleRuns', { params: { server_id: id, schedule_id }, query }),
    },
    backups: {
      list: (id: number): Result<'listBackups'> => c.call('listBackups', { params: server(id) }),
      /** Starts a backup (answered at once, `running`; `backup` events and `get` follow it). */
      create: (id: number, body: Body<'createBackup'> = {}): Result<'createBackup'> => c.call('createBackup', { params: server(id), body }),
      get: (id: number, backup_id: number): Result<'getBackup'> => c.call('getBackup', { params: { server_id: id, backup_id } }),
      /** The archive as a Blob (tar.gz). */
      download: (id: number, backup_id: number) => c.call('downloadBackup', { params: { server_id: id, backup_id } }) as unknown as Promise<Blob>,
      update: (id: number, backup_id: number, body: Body<'updateBackup'>): Result<'updateBackup'> => c.call('updateBackup', { params: { server_id: id, backup_id }, body }),
      /** Puts the backup back; the server must be stopped (409 SERVER_NOT_STOPPED). */
      restore: (id: number, backup_id: number): Result<'restoreBackup'> => c.call('restoreBackup', { params: { server_id: id, backup_id } }),
      delete: (id: number, backup_id: number): Result<'deleteBackup'> => c.call('deleteBackup', { params: { server_id: id, backup_id } }),
    },
    players: {
      list: (id: number): Result<'listPlayers'> => c.call('listPlayers', { params: server(id) }),
      history: (id: number, query: Query<'playerHistory'> = {}): Result<'playerHistory'> => c.call('playerHistory', { params: server(id), query }),
      kick: (id: number, slot_id: string, reason: string): Result<'kickPlayer'> => c.call('kickPlayer', { params: { server_id: id, slot_id }, body: { reason } }),
      ban: (id: number, slot_id: string, body: Body<'banPlayer'>): Result<'banPlayer'> => c.call('banPlayer', { params: { server_id: id, slot_id }, body }),
    },
    bans: {
      list: (id: number, query: Query<'listBans'> = {}): Result<'listBans'> => c.call('listBans', { params: server(id), query }),
      create: (id: number, body: Body<'createBan'>): Result<'createBan'> => c.call('createBan', { params: server(id), body }),
      revoke: (id: number, ban_id: number): Result<'revokeBan'> => c.call('revokeBan', { params: { server_id: id, ban_id } }),
    },
    rcon: {
      say: (id: number, message: string): Result<'rconSay'> => c.call('rconSay', { params: server(id), body: { message } }),
      command: (id: number, command: string): Result<'rconCommand'> => c.call('rconCommand', { params: server(id), body: { command } }),
    },
    config: {
      get: (id: number): Result<'getConfig'> => c.call('getConfig', { params: server(id) }),
      schema: (id: number): Result<'getConfigSchema'> => c.call('getConfigSchema', { params: server(id) }),
      preview: (id: number): Result<'previewConfig'> => c.call('previewConfig', { params: server(id) }),
      section: (id: number, section: string) => c.call('getConfigSection', { params: { server_id: id, section } }) as Promise<SectionPatch & CallResult<Endpoints['getConfigSection']>>,
      download: (id: number, filename: string): Result<'downloadConfigFile'> => c.call('downloadConfigFile', { params: { server_id: id, filename } }),
      /** A partial update of one section, guarded by the version read (409 CONFIG_VERSION_CONFLICT otherwise). */
      update: (id: number, section: string, patch: SectionPatch, config_version: number) =>
        c.call('updateConfigSection', { params: { server_id: id, section }, body: { ...patch, config_version } }) as Promise<SectionPatch & CallResult<Endpoints['updateConfigSection']>>,
    },
  };
}
