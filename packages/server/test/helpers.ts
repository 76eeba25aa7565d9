import { join } from 'node:path';
import knexFactory from 'knex';
import { freeGamePorts } from '@garrison/testkit';
import { apiClient, startGarrison, type ApiResponse, type GarrisonOptions, type TestGarrison } from '@garrison/testkit/harness';

export const ADMIN_PASSWORD = 'admin-password-1';

/** `GARRISON_TEST_DATABASE=mysql://root@127.0.0.1:3306/test` runs the suite on MariaDB (a fresh database per server); unset, on SQLite. */
export const onMysql = Boolean(process.env.GARRISON_TEST_DATABASE);

export type Harness = TestGarrison;
export const makeApi = apiClient;

/** The real service on a random port with its own data dir and database, an admin and a viewer logged in. */
export const startHarness = (options: GarrisonOptions = {}) => startGarrison({ adminPassword: ADMIN_PASSWORD, ...options });

export const tokenFor = (h: Harness, role: 'admin' | 'viewer', username?: string) => h.userToken(role, username);

let nextPort = 1100;
/**
 * A port for a record that nothing binds, distinct within a test file (each file has its own database).
 * Drawn below 10000, where `freeGamePorts` never draws, so the two never meet; a server that is started or
 * whose RCon port a fake binds takes its ports from `createServer`, which draws free ones.
 */
export function freshPort(): number {
  nextPort += 5;
  return nextPort;
}

export async function createServer(h: Harness, overrides: Record<string, unknown> = {}) {
  const res = await h.api('POST', '/servers', {
    token: h.adminToken,
    body: { name: 'Test server', exe_path: '/opt/gamea/gameaserver_x64.exe', ...(await freeGamePorts()), ...overrides },
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

/** A direct connection to the harness's database, for states no endpoint can reach yet. */
export async function withDatabase<T>(h: Harness, fn: (knex: ReturnType<typeof knexFactory>) => Promise<T>): Promise<T> {
  const knex = onMysql
    ? knexFactory({ client: 'mysql2', connection: h.databaseUrl! })
    : knexFactory({ client: 'better-sqlite3', connection: { filename: join(h.dataDir, 'garrison.db') }, useNullAsDefault: true });
  try {
    return await fn(knex);
  } finally {
    await knex.destroy();
  }
}

/** Sets a status the way the process supervisor will; no endpoint of these tests moves it. */
export const setStatus = (h: Harness, id: number, status: string) =>
  withDatabase(h, (knex) => knex('servers').where({ id }).update({ status }));

/** A multipart/form-data body built by hand, so that every header of a part is what the test says. */
export function multipart(parts: { name: string; filename?: string | null; content: Buffer | string }[]) {
  const boundary = `----garrison${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename ?? ''}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
