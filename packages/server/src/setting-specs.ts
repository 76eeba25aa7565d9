import { isAbsolute } from 'node:path';
import type { Settings } from './settings.js';
import { trustedRange } from './http/client-address.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

type Parse = (raw: string, name: string) => unknown;

/** One setting a deployer can set: by environment variable, and for the common ones by flag too. */
export interface SettingSpec {
  key: keyof Settings;
  env: string;
  /** The flag, without the dashes. */
  flag?: string;
  /** Only `serve` takes the flag (where to listen); the commands that work on the data take the others. */
  serveOnly?: boolean;
  /** The default as help shows it, when the value itself would not say it. */
  shownDefault?: string;
  meaning: string;
  parse: Parse;
}

/** A bad setting: names the variable or flag and what it accepts; the CLI exits 2 on it. */
export class SettingError extends Error {}

const text: Parse = (raw) => raw;
const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parse =>
  (raw, name) => {
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new SettingError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
const oneOf =
  (values: readonly string[]): Parse =>
  (raw, name) => {
    if (!values.includes(raw)) throw new SettingError(`${name} must be one of ${values.join(', ')}; got ${JSON.stringify(raw)}`);
    return raw;
  };
const list: Parse = (raw) => raw.split(',').map((p) => p.trim()).filter(Boolean);
/** `0` or `1`, as a switch. */
const onOff: Parse = (raw, name) => {
  if (raw !== '0' && raw !== '1') throw new SettingError(`${name} must be 0 or 1; got ${JSON.stringify(raw)}`);
  return raw === '1';
};
/** A secret the deployer makes up: long enough not to be guessed. */
const secretOf =
  (minLength: number): Parse =>
  (raw, name) => {
    if (raw.length < minLength) throw new SettingError(`${name} must be at least ${minLength} characters`);
    return raw;
  };

/** Every setting a deployer can make, in the order help and docs show them. */
export const SETTINGS: readonly SettingSpec[] = [
  { key: 'port', env: 'GARRISON_PORT', flag: 'port', serveOnly: true, meaning: 'HTTP port (0 picks a free one; the log says which)', parse: integer(0, 65535) },
  { key: 'host', env: 'GARRISON_HOST', flag: 'host', serveOnly: true, meaning: 'address to listen on', parse: text },
  { key: 'dataDir', env: 'GARRISON_DATA_DIR', flag: 'data-dir', meaning: "database file, JWT secret, servers' folders (created 0700)", parse: text },
  {
    key: 'databaseUrl',
    env: 'GARRISON_DATABASE_URL',
    flag: 'database',
    shownDefault: 'SQLite garrison.db in the data dir',
    meaning: 'mysql://user:pass@host:3306/db for MySQL/MariaDB, or sqlite:/path/file.db',
    parse: text,
  },
  { key: 'logLevel', env: 'GARRISON_LOG_LEVEL', flag: 'log-level', meaning: LOG_LEVELS.join(', '), parse: oneOf(LOG_LEVELS) },
  {
    key: 'logFormat',
    env: 'GARRISON_LOG_FORMAT',
    flag: 'log-format',
    shownDefault: 'pretty on a terminal, else json',
    meaning: 'json (one JSON object a line) or pretty (one readable line an entry)',
    parse: oneOf(LOG_FORMATS),
  },
  { key: 'adminUsername', env: 'GARRISON_ADMIN_USERNAME', meaning: 'the first admin, created when there are no users', parse: text },
  {
    key: 'adminPassword',
    env: 'GARRISON_ADMIN_PASSWORD',
    shownDefault: 'generated',
    meaning: "the first admin's password; unset: generated, logged once listening and kept in <data dir>/initial-admin-password until changed",
    parse: text,
  },
  { key: 'jwtSecret', env: 'GARRISON_JWT_SECRET', shownDefault: 'generated', meaning: 'token signing secret; unset: generated once into <data dir>/jwt-secret (0600)', parse: text },
  { key: 'tokenTtlSeconds', env: 'GARRISON_TOKEN_TTL_SECONDS', meaning: 'token lifetime', parse: integer(1) },
  { key: 'loginRateLimit', env: 'GARRISON_LOGIN_RATE_LIMIT', meaning: 'login attempts per minute per client IP; 0 turns it off', parse: integer(0) },
  { key: 'rateLimit', env: 'GARRISON_RATE_LIMIT', meaning: 'requests per minute per token; 0 turns it off', parse: integer(0) },
  {
    key: 'trustProxy',
    env: 'GARRISON_TRUST_PROXY',
    shownDefault: 'none',
    meaning: 'comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client; unset: the header is ignored',
    parse: (raw, name) => {
      const entries = list(raw, name) as string[];
      for (const entry of entries) {
        try {
          trustedRange(entry);
        } catch {
          throw new SettingError(`${name} must be comma-separated addresses or CIDR ranges (127.0.0.1, 10.0.0.0/24, ::1); got ${JSON.stringify(entry)}`);
        }
      }
      return entries;
    },
  },
  { key: 'plugins', env: 'GARRISON_PLUGINS', shownDefault: 'none', meaning: 'comma-separated paths of extra adapter modules or package folders', parse: list },
  { key: 'stopTimeoutMs', env: 'GARRISON_STOP_TIMEOUT_MS', meaning: 'how long a graceful stop waits for the game before killing it', parse: integer(1) },
  { key: 'logLinesPerSecond', env: 'GARRISON_LOG_LINES_PER_SECOND', meaning: 'game log lines kept and streamed per server and second', parse: integer(1) },
  { key: 'logRetentionLines', env: 'GARRISON_LOG_RETENTION_LINES', meaning: 'stored game log lines per server', parse: integer(1) },
  { key: 'logRetentionDays', env: 'GARRISON_LOG_RETENTION_DAYS', meaning: 'stored game log lines are deleted after this', parse: integer(1) },
  { key: 'metricsIntervalMs', env: 'GARRISON_METRICS_INTERVAL_MS', meaning: 'CPU and memory sampling (and metrics events)', parse: integer(1) },
  { key: 'metricsRetentionHours', env: 'GARRISON_METRICS_RETENTION_HOURS', meaning: 'metrics history kept', parse: integer(1) },
  { key: 'playersPollMs', env: 'GARRISON_PLAYERS_POLL_MS', meaning: 'player list poll over remote admin', parse: integer(1) },
  {
    key: 'scheduleTimezone',
    env: 'GARRISON_SCHEDULE_TIMEZONE',
    meaning: 'the IANA time zone of a schedule created without one',
    parse: (raw, name) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: raw });
      } catch {
        throw new SettingError(`${name} must be an IANA time zone (Europe/Berlin, UTC…); got ${JSON.stringify(raw)}`);
      }
      return raw;
    },
  },
  { key: 'backupDir', env: 'GARRISON_BACKUP_DIR', shownDefault: '<data dir>/backups', meaning: 'where server backups are written, one folder per server', parse: text },
  { key: 'dbBackupKeep', env: 'GARRISON_DB_BACKUP_KEEP', meaning: "daily copies of Garrison's own SQLite database kept in <backup dir>/garrison-db; 0 turns them off", parse: integer(0) },
  { key: 'restoreMaxBytes', env: 'GARRISON_RESTORE_MAX_BYTES', meaning: 'a restore refuses (400) an archive whose files add up to more than this (16 GiB), or to more than the free space where they go', parse: integer(1) },
  { key: 'restoreMaxFiles', env: 'GARRISON_RESTORE_MAX_FILES', meaning: 'a restore refuses (400) an archive holding more entries (files, folders, links) than this', parse: integer(1) },
  { key: 'schedulePollMs', env: 'GARRISON_SCHEDULE_POLL_MS', meaning: 'how often due schedule runs are looked for', parse: integer(100) },
  { key: 'historyRetentionDays', env: 'GARRISON_HISTORY_RETENTION_DAYS', meaning: 'audit trail and player history kept', parse: integer(1) },
  { key: 'missionUploadLimitBytes', env: 'GARRISON_MISSION_UPLOAD_LIMIT_BYTES', meaning: 'largest mission upload (500 MiB); larger is cut off with 413', parse: integer(1) },
  { key: 'headersTimeoutS', env: 'GARRISON_HEADERS_TIMEOUT_S', meaning: "seconds a client has to send a request's headers; later: 408 and the connection closes", parse: integer(1, 3600) },
  {
    key: 'bodyIdleTimeoutS',
    env: 'GARRISON_BODY_IDLE_TIMEOUT_S',
    meaning: 'seconds a request body may go without a byte arriving; then 408 and the connection closes (an upload that keeps sending is never cut by it)',
    parse: integer(1, 3600),
  },
  {
    key: 'requestTimeoutS',
    env: 'GARRISON_REQUEST_TIMEOUT_S',
    meaning: 'seconds in which a whole request (headers and body: a 500 MiB upload on a slow link) must arrive; 0: no bound but the idle one',
    parse: integer(0),
  },
  {
    key: 'maxConnectionsPerAddress',
    env: 'GARRISON_MAX_CONNECTIONS_PER_ADDRESS',
    meaning: 'connections (HTTP and WebSocket) open at once from one client address; past it each request is answered 429 and its connection closed; 0 turns the cap off',
    parse: integer(0),
  },
  {
    key: 'maxWebSocketsPerUser',
    env: 'GARRISON_MAX_WEBSOCKETS_PER_USER',
    meaning: 'WebSockets open at once per user (sessions) or per API key; past it a new one is closed with 1008; 0 turns the cap off',
    parse: integer(0),
  },
  {
    key: 'nodeId',
    env: 'GARRISON_NODE_ID',
    shownDefault: 'generated',
    meaning: "this instance's id (letters, digits, . _ -); it owns the game processes it runs; unset: generated once into <data dir>/node-id",
    parse: (raw, name) => {
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) throw new SettingError(`${name} must be 1 to 64 letters, digits, dots, underscores or dashes; got ${JSON.stringify(raw)}`);
      return raw;
    },
  },
  {
    key: 'advertiseUrl',
    env: 'GARRISON_ADVERTISE_URL',
    shownDefault: 'the listening address',
    meaning: "http(s)://host:port at which the other instances of a cluster reach this one's API",
    parse: (raw, name) => {
      if (!/^https?:\/\/[^/?#\s]+\/?$/.test(raw)) throw new SettingError(`${name} must be http://host:port or https://host:port; got ${JSON.stringify(raw)}`);
      return raw.replace(/\/$/, '');
    },
  },
  {
    key: 'natsUrl',
    env: 'GARRISON_NATS_URL',
    shownDefault: 'none (one instance)',
    meaning: 'nats://host:4222 (comma-separated for several): with MySQL/MariaDB, the instances on one database form a cluster',
    parse: (raw, name) => {
      const urls = raw.split(',').map((u) => u.trim());
      if (urls.some((u) => !/^(nats|tls):\/\/[^/?#\s]+$/.test(u))) throw new SettingError(`${name} must be nats://host:port (comma-separated for several); got ${JSON.stringify(raw)}`);
      return urls.join(',');
    },
  },
  {
    key: 'clusterSecret',
    env: 'GARRISON_CLUSTER_SECRET',
    shownDefault: 'none',
    meaning: 'signs the requests instances forward to each other; the same on every instance, at least 32 characters',
    parse: secretOf(32),
  },
  { key: 'nodeHeartbeatMs', env: 'GARRISON_NODE_HEARTBEAT_MS', meaning: 'how often an instance of a cluster says it is alive', parse: integer(100) },
  { key: 'nodeOfflineAfterMs', env: 'GARRISON_NODE_OFFLINE_AFTER_MS', meaning: "a node silent this long is offline: its servers show status unknown and requests for them 503", parse: integer(500) },
  {
    key: 'metricsToken',
    env: 'GARRISON_METRICS_TOKEN',
    shownDefault: 'none (no /metrics)',
    meaning: 'turns GET /metrics (Prometheus text, OpenMetrics on request) on for requests with Authorization: Bearer <this>; at least 16 characters',
    parse: secretOf(16),
  },
  {
    key: 'metricsAddress',
    env: 'GARRISON_METRICS_ADDRESS',
    shownDefault: "the API's address",
    meaning: 'host:port where /metrics is served instead of on the API\'s port (e.g. 127.0.0.1:9464)',
    parse: (raw, name) => {
      const match = /^(\[[0-9a-fA-F:]+\]|[^:\s/]+):(\d{1,5})$/.exec(raw);
      if (!match || Number(match[2]) > 65535) throw new SettingError(`${name} must be host:port (127.0.0.1:9464); got ${JSON.stringify(raw)}`);
      return raw;
    },
  },
  {
    key: 'webhookAllowPrivate',
    env: 'GARRISON_WEBHOOK_ALLOW_PRIVATE',
    shownDefault: '0',
    meaning: '1 lets webhooks go to loopback, link-local and private addresses (a receiver on your own network); 0 refuses them',
    parse: onOff,
  },
  { key: 'webhookPollMs', env: 'GARRISON_WEBHOOK_POLL_MS', meaning: 'how often due webhook deliveries (retries, other instances\' events) are looked for', parse: integer(100) },
  {
    key: 'require2faForAdmins',
    env: 'GARRISON_REQUIRE_2FA_FOR_ADMINS',
    shownDefault: '0',
    meaning: '1: admins must have two-factor sign-in; an admin without it can sign in only to enrol',
    parse: onOff,
  },
  { key: 'defaultGameType', env: 'GARRISON_DEFAULT_GAME_TYPE', meaning: 'the game type of a server created without one', parse: text },
  {
    key: 'gameRoots',
    env: 'GARRISON_GAME_ROOTS',
    shownDefault: 'none (anywhere but the data, backup and secrets folders; a warning at start)',
    meaning: ':-separated absolute folders: every server executable (create, update, start, import) and every file an import reads must be inside one, links followed',
    parse: (raw, name) => {
      const roots = raw.split(':').map((r) => r.trim()).filter(Boolean);
      const relative = roots.find((r) => !isAbsolute(r));
      if (relative !== undefined || !roots.length) throw new SettingError(`${name} must be absolute folders separated by ':' (/srv/games:/opt/gamea); got ${JSON.stringify(raw)}`);
      return roots;
    },
  },
];
