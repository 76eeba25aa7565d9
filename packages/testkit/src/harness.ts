import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { pino } from 'pino';
import { startServer, type RunningServer, type StartOptions } from '@garrison/server';
import { expectOnly } from '@garrison/core';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read an answer's body untyped unless they name its type
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (for malformed input). */
  raw?: string;
  headers?: Record<string, string>;
}

export type Api = (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;

/** A bare HTTP client for `/api` paths: JSON in, JSON out (text when the answer is not JSON). */
export function apiClient(baseUrl: string): Api {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${baseUrl}/api${path}`, { method, headers, body: payload });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (err) {
      expectOnly(err, SyntaxError); // not JSON: keep the text
    }
    return { status: response.status, body, headers: response.headers };
  };
}

export interface GarrisonOptions extends StartOptions {
  /**
   * `mysql://user:pass@host:port/anything` runs on a fresh database created on that server and dropped
   * on close; unset, SQLite in the data dir. Defaults to `GARRISON_TEST_DATABASE`.
   */
  mysqlUrl?: string;
}

export interface TestGarrison {
  server: RunningServer;
  url: string;
  dataDir: string;
  databaseUrl: string | null;
  api: Api;
  adminToken: string;
  viewerToken: string;
  adminPassword: string;
  /** Makes a user of that role and returns a token for it. */
  userToken(role: 'admin' | 'viewer', username?: string): Promise<{ token: string; id: number; username: string; password: string }>;
  /** Stops the server, then removes its data dir and database. */
  close(): Promise<void>;
}

/** A new empty database on the MySQL/MariaDB server of `url` (its user must create databases); `drop()` removes it. */
export async function freshMysqlDatabase(url: string) {
  const name = `garrison_t_${randomBytes(6).toString('hex')}`;
  const base = new URL(url);
  // One connection, opened for the statement and closed after it: suites in parallel hold many servers'
  // pools at once, and an idle admin connection per database would count against MariaDB's max_connections.
  const asAdmin = async (sql: string) => {
    const admin = knexFactory({
      client: 'mysql2',
      connection: {
        host: base.hostname,
        port: Number(base.port || 3306),
        user: decodeURIComponent(base.username),
        password: decodeURIComponent(base.password),
      },
      pool: { min: 0, max: 1 },
    });
    try {
      await admin.raw(sql);
    } finally {
      await admin.destroy();
    }
  };
  await asAdmin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  base.pathname = `/${name}`;
  return {
    url: base.toString(),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS \`${name}\``),
  };
}

/**
 * Starts Garrison in this process on a random port with a temporary data dir, rate limits off and a
 * silent logger, and logs in an admin and a viewer. Works with any test runner: call `close()` when done.
 */
export async function startGarrison(options: GarrisonOptions = {}): Promise<TestGarrison> {
  const { mysqlUrl = process.env.GARRISON_TEST_DATABASE, ...startOptions } = options;
  const dataDir = startOptions.dataDir ?? (await mkdtemp(join(tmpdir(), 'garrison-test-')));
  const database = startOptions.databaseUrl === undefined && mysqlUrl ? await freshMysqlDatabase(mysqlUrl) : null;
  const adminPassword = startOptions.adminPassword ?? `admin-${randomBytes(6).toString('hex')}`;
  const server = await startServer({
    port: 0,
    loginRateLimit: 0,
    rateLimit: 0,
    logger: pino({ level: process.env.GARRISON_TEST_LOG ?? 'silent' }),
    // On a fake clock a test moves time by hours or days: a schedule poll every second would fire
    // 86,400 times a day of it. Tests of schedules say how often they want it.
    ...(startOptions.clock && startOptions.schedulePollMs === undefined ? { schedulePollMs: 60_000 } : {}),
    ...(startOptions.clock && startOptions.webhookPollMs === undefined ? { webhookPollMs: 60_000 } : {}),
    ...(startOptions.clock && startOptions.backgroundJobPollMs === undefined ? { backgroundJobPollMs: 60_000 } : {}),
    ...startOptions,
    dataDir,
    adminPassword,
    databaseUrl: startOptions.databaseUrl ?? database?.url ?? null,
  });
  const api = apiClient(server.url);
  const login = async (username: string, password: string) => {
    const res = await api('POST', '/auth/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { data: { access_token: string } }).data.access_token;
  };
  const adminToken = await login(server.settings.adminUsername, adminPassword);
  const userToken: TestGarrison['userToken'] = async (role, username = `${role}_${randomBytes(3).toString('hex')}`) => {
    const password = `password-of-${username}`;
    const created = await api('POST', '/auth/users', { token: adminToken, body: { username, password, role } });
    if (created.status !== 201) throw new Error(`creating ${username} failed: ${JSON.stringify(created.body)}`);
    return { token: await login(username, password), id: (created.body as { data: { id: number } }).data.id, username, password };
  };
  const viewerToken = (await userToken('viewer')).token;
  return {
    server,
    url: server.url,
    dataDir,
    databaseUrl: startOptions.databaseUrl ?? database?.url ?? null,
    api,
    adminToken,
    viewerToken,
    adminPassword,
    userToken,
    close: async () => {
      await server.close();
      await database?.drop();
      if (!startOptions.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
