import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { pino } from 'pino';
import { startServer, type RunningServer, type StartOptions } from '../src/index.js';

export const ADMIN_PASSWORD = 'admin-password-1';

/** `GARRISON_TEST_DATABASE=mysql://root@127.0.0.1:3306/test` runs the suite on MariaDB; unset, on SQLite. */
const MYSQL_URL = process.env.GARRISON_TEST_DATABASE;
export const onMysql = Boolean(MYSQL_URL);

/** A fresh logical database for one test file: a new MariaDB database, or null for SQLite in the data dir. */
async function freshDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  if (!MYSQL_URL) return { url: null, drop: async () => {} };
  const name = `garrison_t_${randomBytes(6).toString('hex')}`;
  const base = new URL(MYSQL_URL);
  const admin = knexFactory({
    client: 'mysql2',
    connection: { host: base.hostname, port: Number(base.port || 3306), user: decodeURIComponent(base.username), password: decodeURIComponent(base.password) },
  });
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  const url = new URL(MYSQL_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    },
  };
}

export interface Harness {
  server: RunningServer;
  dataDir: string;
  databaseUrl: string | null;
  api: Api;
  adminToken: string;
  /** Stops the server and removes its data dir and database. */
  close(): Promise<void>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export type Api = (method: string, path: string, options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> }) => Promise<ApiResponse>;

export function makeApi(baseUrl: string): Api {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${baseUrl}/api${path}`, { method, headers, body: payload });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: leave as text */
    }
    return { status: response.status, body, headers: response.headers };
  };
}

/** Boots the real service on a random port with its own data dir and database, logged in as the first admin. */
export async function startHarness(options: StartOptions = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'garrison-test-')));
  const database = await freshDatabase();
  const server = await startServer({
    port: 0,
    dataDir,
    databaseUrl: database.url,
    adminPassword: ADMIN_PASSWORD,
    loginRateLimit: 0,
    rateLimit: 0,
    logger: pino({ level: process.env.GARRISON_TEST_LOG ?? 'silent' }),
    ...options,
  });
  const api = makeApi(server.url);
  const login = await api('POST', '/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
  if (login.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(login.body)}`);
  return {
    server,
    dataDir,
    databaseUrl: database.url,
    api,
    adminToken: login.body.data.access_token,
    close: async () => {
      await server.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a user of that role and returns a token for it. */
export async function tokenFor(h: Harness, role: 'admin' | 'viewer', username = `${role}_${randomBytes(3).toString('hex')}`) {
  const password = 'password-of-' + username;
  const created = await h.api('POST', '/auth/users', { token: h.adminToken, body: { username, password, role } });
  if (created.status !== 201) throw new Error(`creating ${username} failed: ${JSON.stringify(created.body)}`);
  const login = await h.api('POST', '/auth/login', { body: { username, password } });
  return { token: login.body.data.access_token as string, id: created.body.data.id as number, username, password };
}

let nextPort = 20000 + (process.pid % 200) * 100;
/** Distinct game ports per test within a file; ports are only records here, nothing binds them. */
export function freshPort(): number {
  nextPort += 10;
  return nextPort;
}

export async function createServer(h: Harness, overrides: Record<string, unknown> = {}) {
  const res = await h.api('POST', '/servers', {
    token: h.adminToken,
    body: { name: 'Test server', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: freshPort(), ...overrides },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export function expectError(res: ApiResponse, status: number, code: string) {
  if (res.status !== status || res.body?.success !== false || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.error as { code: string; message: string; [k: string]: unknown };
}
