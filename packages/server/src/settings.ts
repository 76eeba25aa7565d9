import { resolve } from 'node:path';
import { LOG_LEVELS, SETTINGS, SettingError, type LogFormat, type SettingSpec } from './setting-specs.js';

export { SETTINGS, SettingError, type LogFormat, type SettingSpec } from './setting-specs.js';

/** Everything a running service is configured with; read once at start-up (flags win over environment). */
export interface Settings {
  host: string;
  port: number;
  dataDir: string;
  /** `sqlite:<file>` or `mysql://user:pass@host:3306/db`; null means `garrison.db` in the data dir. */
  databaseUrl: string | null;
  adminUsername: string;
  adminPassword: string | null;
  jwtSecret: string | null;
  tokenTtlSeconds: number;
  /** Requests per minute; 0 turns the limit off. */
  loginRateLimit: number;
  rateLimit: number;
  /** Reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For is believed; empty: none. */
  trustProxy: string[];
  /** Extra adapter modules to load besides the discovered packages. */
  plugins: string[];
  logLevel: string;
  /** JSON lines for machines, one readable line per entry for people; null picks by whether stdout is a terminal. */
  logFormat: LogFormat | null;
  /** A graceful stop waits this long for the game to exit before killing it (the spec's 30 s). */
  stopTimeoutMs: number;
  /** A start that has not passed the readiness probe after this long is an error (decisions: 120 s). */
  readyTimeoutMs: number;
  /** Auto-restart waits this long after the first crash, doubling up to restartBackoffMaxMs. */
  restartBackoffMs: number;
  restartBackoffMaxMs: number;
  /** At most this many log lines a second are kept and sent per server; the rest are counted and dropped. */
  logLinesPerSecond: number;
  /** Stored log lines kept per server, and for how long. */
  logRetentionLines: number;
  logRetentionDays: number;
  /** How often CPU and memory of each game are sampled, and how long samples are kept. */
  metricsIntervalMs: number;
  metricsRetentionHours: number;
  /** How often the player list is asked for over remote admin. */
  playersPollMs: number;
  scheduleTimezone: string;
  backupDir: string | null;
  dbBackupKeep: number;
  /**
   * A restore refuses an archive that expands past this many bytes, or holds more entries than `restoreMaxFiles` (a bomb fills no disk).
   */
  restoreMaxBytes: number;
  restoreMaxFiles: number;
  schedulePollMs: number;
  /** How often timed bans are checked for expiry (decisions: gone within 60 s of `expires_at`). */
  banExpiryCheckMs: number;
  /** The audit trail and the player history are kept this long. */
  historyRetentionDays: number;
  /** The largest mission upload (the spec's 500 MB, as MiB so that a 500 MiB file fits). */
  missionUploadLimitBytes: number;
  /** A client has this long to send a request's headers (from its connection, or the end of its last answer on it). */
  headersTimeoutS: number;
  /** A request body during which nothing arrives for this long is cut off: a slow link that still sends is never cut. */
  bodyIdleTimeoutS: number;
  /** The whole request (headers and body) must have arrived within this; 0: no bound but the idle one. */
  requestTimeoutS: number;
  /** Connections open at once from one client address (HTTP and WebSocket); over it: 429. 0: no cap. */
  maxConnectionsPerAddress: number;
  /** WebSockets open at once for one user (a session's token) or one API key; over it: close 1008. 0: no cap. */
  maxWebSocketsPerUser: number;
  /** This instance's id: it owns the processes it runs. Null: generated once into the data dir. */
  nodeId: string | null;
  /** The address this instance's peers reach it at (`http://host:port`); null: its own listening address. */
  advertiseUrl: string | null;
  /** Set on MySQL/MariaDB: the instances sharing the database form a cluster, their events carried by NATS. */
  natsUrl: string | null;
  /** Signs the requests one instance forwards to another; the same on every instance of a cluster. */
  clusterSecret: string | null;
  /** How often this instance says it is alive; a node silent for nodeOfflineAfterMs is offline. */
  nodeHeartbeatMs: number;
  nodeOfflineAfterMs: number;
  /** Turns `GET /metrics` (Prometheus) on, for requests bearing it; null: off. */
  metricsToken: string | null;
  /** `host:port` where `/metrics` is served instead of the API's port; null: on the API's port. */
  metricsAddress: string | null;
  /** Lets webhooks go to loopback, link-local and private addresses (a receiver on the same network; tests). */
  webhookAllowPrivate: boolean;
  /** How often the delivering instance looks for webhook deliveries that came due (new ones wake it at once). */
  webhookPollMs: number;
  /** Admins must have two-factor sign-in: one without it can sign in only to enrol. */
  require2faForAdmins: boolean;
  /** The game type of a server created without one. */
  defaultGameType: string;
  /** Folders every executable and every imported file must be in (links followed); empty: anywhere but the service's own folders. */
  gameRoots: string[];
}

export type SettingsInput = Partial<Settings>;

const DEFAULTS: Settings = {
  host: '127.0.0.1',
  port: 8080,
  dataDir: './data',
  databaseUrl: null,
  adminUsername: 'admin',
  adminPassword: null,
  jwtSecret: null,
  tokenTtlSeconds: 86400,
  loginRateLimit: 5,
  rateLimit: 60,
  trustProxy: [],
  plugins: [],
  logLevel: 'info',
  logFormat: null,
  stopTimeoutMs: 30_000,
  readyTimeoutMs: 120_000,
  restartBackoffMs: 2000,
  restartBackoffMaxMs: 60_000,
  logLinesPerSecond: 200,
  logRetentionLines: 10_000,
  logRetentionDays: 14,
  metricsIntervalMs: 5000,
  metricsRetentionHours: 72,
  playersPollMs: 10_000,
  scheduleTimezone: 'UTC',
  backupDir: null,
  dbBackupKeep: 7,
  // A profile and its config are a few MiB; missions (a backup may hold them) are the bulk.
  restoreMaxBytes: 16 * 1024 ** 3,
  restoreMaxFiles: 100_000,
  schedulePollMs: 1_000,
  banExpiryCheckMs: 15_000,
  historyRetentionDays: 180,
  missionUploadLimitBytes: 500 * 1024 * 1024,
  headersTimeoutS: 20,
  bodyIdleTimeoutS: 30,
  requestTimeoutS: 3600,
  maxConnectionsPerAddress: 256,
  maxWebSocketsPerUser: 64,
  nodeId: null,
  advertiseUrl: null,
  natsUrl: null,
  clusterSecret: null,
  nodeHeartbeatMs: 2_000,
  nodeOfflineAfterMs: 10_000,
  metricsToken: null,
  metricsAddress: null,
  webhookAllowPrivate: false,
  webhookPollMs: 1_000,
  require2faForAdmins: false,
  defaultGameType: 'gamea',
  gameRoots: [],
};

/** The settings given by flag: all of them for `serve`, the ones about the data for the other commands. */
export const flagSettings = (command: 'serve' | 'data') => SETTINGS.filter((s) => s.flag && (command === 'serve' || !s.serveOnly));

/** The default of a setting as a person reads it. */
export function shownDefault(spec: SettingSpec): string {
  return spec.shownDefault ?? String(DEFAULTS[spec.key]);
}

/** The settings given by environment variables; a bad value throws a SettingError naming the variable. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SettingsInput {
  const out: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const raw = env[spec.env];
    if (raw !== undefined && raw !== '') out[spec.key] = spec.parse(raw, spec.env);
  }
  return out;
}

/** The settings given as `serve` flags (by flag name, without dashes); a bad value names the flag. */
export function settingsFromFlags(flags: Record<string, string | undefined>): SettingsInput {
  const out: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const raw = spec.flag ? flags[spec.flag] : undefined;
    if (raw !== undefined) out[spec.key] = spec.parse(raw, `--${spec.flag}`);
  }
  return out;
}

export function resolveSettings(input: SettingsInput = {}): Settings {
  const settings: Settings = { ...DEFAULTS, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535) throw new SettingError(`port out of range: ${settings.port}`);
  if (settings.tokenTtlSeconds < 1) throw new SettingError('the token lifetime must be at least one second');
  if (!(LOG_LEVELS as readonly string[]).includes(settings.logLevel)) throw new SettingError(`the log level must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(settings.logLevel)}`);
  if (settings.requestTimeoutS > 0 && settings.requestTimeoutS < settings.headersTimeoutS) {
    throw new SettingError(`GARRISON_REQUEST_TIMEOUT_S (${settings.requestTimeoutS}) must be 0 or at least GARRISON_HEADERS_TIMEOUT_S (${settings.headersTimeoutS})`);
  }
  settings.dataDir = resolve(settings.dataDir);
  return settings;
}
