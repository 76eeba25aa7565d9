/**
 * What an API key may be allowed to do. Every endpoint belongs to exactly one scope, named beside it in
 * its feature's table (`scope`; a new endpoint without one does not compile). `account` and `admin` are never a key's: a key cannot
 * make keys, change a password, manage users or webhooks, or import a server.
 */
export const KEY_SCOPES = ['servers:read', 'servers:control', 'servers:write', 'rcon', 'players:moderate', 'files', 'metrics'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];
export type Scope = KeyScope | 'account' | 'admin';

export const SCOPE_MEANINGS: Record<Scope, string> = {
  'servers:read':
    'list and read servers, their config, players, bans, missions, mods, logs, metrics history, schedules, backups, events ' +
    'and background jobs',
  'servers:control': 'start, stop, restart and kill servers; run a schedule now; cancel a background job (admins)',
  'servers:write': 'create, update and delete servers; config, rotation, mods, schedules and backups; install the dedicated server',
  rcon: 'remote-admin commands, messages to every player, a mission played now',
  'players:moderate': 'kick and ban players, add and revoke bans',
  files: 'upload, download and delete files: missions, log files, backup archives; the rendered config files (with their passwords)',
  metrics: 'GET /metrics (Prometheus)',
  account: "signing in and out, one's own password, keys and sessions: never a key's",
  admin:
    'users, webhooks, nodes and integrations, importing a server (it reads files of the host), the audit trail, the Steam account: ' +
    "never a key's",
};
