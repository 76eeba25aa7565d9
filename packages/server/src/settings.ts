import { resolve } from 'node:path';

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
  /** Extra adapter modules to load besides the discovered packages. */
  plugins: string[];
  logLevel: string;
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
  /** How often timed bans are checked for expiry (decisions: gone within 60 s of `expires_at`). */
  banExpiryCheckMs: number;
  /** The audit trail and the player history are kept this long. */
  historyRetentionDays: number;
  /** The largest mission upload (the spec's 500 MB, as MiB so that a 500 MiB file fits). */
  missionUploadLimitBytes: number;
}

export type SettingsInput = Partial<Settings>;

function intFrom(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SettingsInput {
  const out: SettingsInput = {};
  if (env.GARRISON_HOST) out.host = env.GARRISON_HOST;
  if (env.GARRISON_PORT) out.port = intFrom(env.GARRISON_PORT, 'GARRISON_PORT', 8080);
  if (env.GARRISON_DATA_DIR) out.dataDir = env.GARRISON_DATA_DIR;
  if (env.GARRISON_DATABASE_URL) out.databaseUrl = env.GARRISON_DATABASE_URL;
  if (env.GARRISON_ADMIN_USERNAME) out.adminUsername = env.GARRISON_ADMIN_USERNAME;
  if (env.GARRISON_ADMIN_PASSWORD) out.adminPassword = env.GARRISON_ADMIN_PASSWORD;
  if (env.GARRISON_JWT_SECRET) out.jwtSecret = env.GARRISON_JWT_SECRET;
  if (env.GARRISON_TOKEN_TTL_SECONDS) out.tokenTtlSeconds = intFrom(env.GARRISON_TOKEN_TTL_SECONDS, 'GARRISON_TOKEN_TTL_SECONDS', 86400);
  if (env.GARRISON_LOGIN_RATE_LIMIT) out.loginRateLimit = intFrom(env.GARRISON_LOGIN_RATE_LIMIT, 'GARRISON_LOGIN_RATE_LIMIT', 5);
  if (env.GARRISON_RATE_LIMIT) out.rateLimit = intFrom(env.GARRISON_RATE_LIMIT, 'GARRISON_RATE_LIMIT', 60);
  if (env.GARRISON_PLUGINS) out.plugins = env.GARRISON_PLUGINS.split(',').map((p) => p.trim()).filter(Boolean);
  if (env.GARRISON_LOG_LEVEL) out.logLevel = env.GARRISON_LOG_LEVEL;
  const positive: [keyof Settings, string][] = [
    ['stopTimeoutMs', 'GARRISON_STOP_TIMEOUT_MS'],
    ['logLinesPerSecond', 'GARRISON_LOG_LINES_PER_SECOND'],
    ['logRetentionLines', 'GARRISON_LOG_RETENTION_LINES'],
    ['logRetentionDays', 'GARRISON_LOG_RETENTION_DAYS'],
    ['metricsIntervalMs', 'GARRISON_METRICS_INTERVAL_MS'],
    ['metricsRetentionHours', 'GARRISON_METRICS_RETENTION_HOURS'],
    ['playersPollMs', 'GARRISON_PLAYERS_POLL_MS'],
    ['historyRetentionDays', 'GARRISON_HISTORY_RETENTION_DAYS'],
    ['missionUploadLimitBytes', 'GARRISON_MISSION_UPLOAD_LIMIT_BYTES'],
  ];
  for (const [key, name] of positive) {
    if (!env[name]) continue;
    const value = intFrom(env[name], name, 0);
    if (value < 1) throw new Error(`${name} must be at least 1, got ${JSON.stringify(env[name])}`);
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export function resolveSettings(input: SettingsInput = {}): Settings {
  const settings: Settings = {
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
    plugins: [],
    logLevel: 'info',
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
    banExpiryCheckMs: 15_000,
    historyRetentionDays: 180,
    missionUploadLimitBytes: 500 * 1024 * 1024,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  };
  if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535) throw new Error(`port out of range: ${settings.port}`);
  if (settings.tokenTtlSeconds < 1) throw new Error('the token lifetime must be at least one second');
  settings.dataDir = resolve(settings.dataDir);
  return settings;
}
