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
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  };
  if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535) throw new Error(`port out of range: ${settings.port}`);
  if (settings.tokenTtlSeconds < 1) throw new Error('the token lifetime must be at least one second');
  settings.dataDir = resolve(settings.dataDir);
  return settings;
}
