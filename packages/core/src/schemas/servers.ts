import { Type, type Static } from '../typebox.js';
import { Nullable, PageQuery, Timestamp } from './common.js';

export const ServerStatus = Type.Union(
  [
    Type.Literal('starting'),
    Type.Literal('running'),
    Type.Literal('stopping'),
    Type.Literal('stopped'),
    Type.Literal('crashed'),
    Type.Literal('error'),
    Type.Literal('unknown'),
  ],
  { description: '`unknown`: the node that runs the server is offline, so nobody can tell (never taken for stopped).' },
);
export type ServerStatus = Static<typeof ServerStatus>;

/** Statuses in which a process exists (or is being brought up or down). */
export const ACTIVE_STATUSES: readonly ServerStatus[] = ['starting', 'running', 'stopping'];
/** Statuses without a process: a server in one can be started, or deleted. */
export const IDLE_STATUSES: readonly ServerStatus[] = ['stopped', 'crashed', 'error'];

export const Port = Type.Integer({ minimum: 1024, maximum: 65535 });
export const ServerName = Type.String({ minLength: 1, maxLength: 100 });
export const ServerDescription = Nullable(Type.String({ maxLength: 1000 }));
export const ExePath = Type.String({ minLength: 1, maxLength: 4096 });
export const MaxRestarts = Type.Integer({ minimum: 0, maximum: 20 });
export const BackupKeep = Type.Integer({ minimum: 0, maximum: 1000, default: 7, description: 'Automatic backups kept (0 to 1000).' });
export const BackupExclude = Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\\\]+$' }), {
  maxItems: 50,
  description:
    'File names a backup of this server leaves out, at any depth (`*.bin` or a whole name), besides what the game leaves out (logs).',
});
export const HeadlessClients = Type.Integer({
  minimum: 0,
  maximum: 10,
  default: 0,
  description: 'Headless clients to run beside the server once it is running (0 to 10).',
});

export const ServerWarning = Type.Union([
  Type.Literal('exe_missing'),
  Type.Literal('crash_loop'),
  Type.Literal('restart_needed'),
  Type.Literal('shares_installation'),
  Type.Literal('mods_outdated'),
]);
export type ServerWarning = Static<typeof ServerWarning>;

export const ServerListItem = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Nullable(Type.String()),
    game_type: Type.String(),
    status: ServerStatus,
    pid: Nullable(Type.Integer()),
    game_port: Type.Integer(),
    rcon_port: Type.Integer(),
    auto_restart: Type.Boolean(),
    max_restarts: Type.Integer(),
    restart_count: Type.Integer(),
    headless_clients: Type.Integer({ description: 'Headless clients run beside the server (extra game processes for AI).' }),
    player_count: Nullable(Type.Integer()),
    cpu_percent: Nullable(Type.Number()),
    ram_mb: Nullable(Type.Number()),
    started_at: Nullable(Timestamp),
    hostname: Nullable(
      Type.String({ description: "The name players see in the game's server browser (from the config), when the game has one." }),
    ),
    max_players: Nullable(Type.Integer({ description: 'The player limit from the config, when the game has one.' })),
    mission: Nullable(Type.String({ description: 'The mission the game last said it plays (from its log), while it runs.' })),
    node_id: Type.String({ description: "The node (Garrison instance) that runs the server's processes and keeps its files." }),
    node_online: Type.Boolean({ description: 'Whether that node is alive; while it is not, `status` is `unknown`.' }),
    warnings: Type.Array(ServerWarning, {
      description:
        'What needs attention: `exe_missing` (no file at exe_path), `crash_loop` (gave up restarting), `restart_needed` (config ' +
        'changed since the start), `shares_installation` (creation or import only: see `installation_shared_with`), ' +
        "`mods_outdated` (a Workshop mod has a newer version on Steam: see the server's Workshop items).",
    }),
  },
  { $id: 'ServerListItem' },
);
export type ServerListItem = Static<typeof ServerListItem>;

export const ServerDetail = Type.Object(
  {
    ...ServerListItem.properties,
    exe_path: Type.String(),
    uptime_seconds: Type.Integer(),
    backup_keep: Type.Integer({ description: 'Automatic backups kept; older ones are pruned (manual and locked ones never).' }),
    backup_exclude: BackupExclude,
  },
  { $id: 'ServerDetail' },
);
export type ServerDetail = Static<typeof ServerDetail>;

export const InstallationSharedWith = Type.Array(
  Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false }),
  {
    description: 'The servers of the node on the same installation, when there are some (`shares_installation`).',
  },
);

export const CreatedServer = Type.Object(
  { ...ServerDetail.properties, installation_shared_with: Type.Optional(InstallationSharedWith) },
  {
    $id: 'CreatedServer',
    additionalProperties: Type.String(),
    description: "The full server plus its generated credentials (the adapter's, e.g. password_admin and rcon_password), shown only here.",
  },
);

export const CreateServerRequest = Type.Object(
  {
    name: ServerName,
    description: Type.Optional(ServerDescription),
    game_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "A registered game type; the service's default game type when left out." }),
    ),
    exe_path: ExePath,
    game_port: Port,
    rcon_port: Type.Optional(Port),
    auto_restart: Type.Optional(Type.Boolean({ default: false })),
    max_restarts: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, default: 3 })),
    headless_clients: Type.Optional(HeadlessClients),
    backup_keep: Type.Optional(BackupKeep),
    backup_exclude: Type.Optional(BackupExclude),
    node_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9._-]+$',
        description: 'The node to run it on (its files and processes live there); the instance that takes the request when left out.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateServerRequest = Static<typeof CreateServerRequest>;

export const UpdateServerRequest = Type.Object(
  {
    name: Type.Optional(ServerName),
    description: Type.Optional(ServerDescription),
    exe_path: Type.Optional(ExePath),
    game_port: Type.Optional(Port),
    rcon_port: Type.Optional(Port),
    auto_restart: Type.Optional(Type.Boolean()),
    max_restarts: Type.Optional(MaxRestarts),
    headless_clients: Type.Optional(HeadlessClients),
    backup_keep: Type.Optional(BackupKeep),
    backup_exclude: Type.Optional(BackupExclude),
  },
  { additionalProperties: false },
);
export type UpdateServerRequest = Static<typeof UpdateServerRequest>;

export const ServerListQuery = Type.Object({
  game_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  ...PageQuery.properties,
});
