import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startServer } from '@garrison/server';
import { apiClient, freshMysqlDatabase } from '@garrison/testkit/harness';
import { killAll, withDeadline } from '@garrison/testkit';
import { garrison, serveProcess } from './cli-run.js';

const MYSQL = process.env.GARRISON_TEST_DATABASE;
// Several service processes, one after the other, on a loaded machine (a first start migrates a fresh database).
const SLOW = { timeout: 240_000 };
const LISTEN_MS = 90_000;

describe('one service per data dir', () => {
  after(() => killAll());

  it(
    'refuses a second serve on a data dir in use, naming the holder; commands on the database still run; a SIGKILLed holder blocks no one',
    SLOW,
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'garrison-lock-'));
      const database = MYSQL ? await freshMysqlDatabase(MYSQL) : null;
      const flags = ['--data-dir', dataDir, ...(database ? ['--database', database.url] : [])];
      const env = { GARRISON_ADMIN_PASSWORD: 'lock-admin-password-1' };
      const first = await serveProcess(flags, env, LISTEN_MS);
      let third: Awaited<ReturnType<typeof serveProcess>> | null = null;
      try {
        const second = await garrison(['serve', '--port', '0', ...flags], { env, timeoutMs: LISTEN_MS });
        assert.equal(second.code, 1, second.stdout + second.stderr);
        const said = second.stdout + second.stderr;
        assert.match(
          said,
          new RegExp(
            `data dir ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by garrison serve with ` +
              `pid ${first.process.pid} on host ${hostname()}`,
          ),
        );
        assert.doesNotMatch(said, /listening on|re-adopted/, 'refused before it touched anything');
        const login = await apiClient(first.url)('POST', '/auth/login', {
          body: { username: 'admin', password: env.GARRISON_ADMIN_PASSWORD },
        });
        assert.equal(login.status, 200, 'the first one serves on');

        // Only a second service is refused: the commands that work on the database run beside it.
        const created = await garrison(['users', 'create', 'lockuser', ...flags], { timeoutMs: LISTEN_MS });
        assert.equal(created.code, 0, created.stderr);
        const listed = await garrison(['users', 'list', '--json', ...flags], { timeoutMs: LISTEN_MS });
        assert.equal(listed.code, 0, listed.stderr);
        assert.ok((JSON.parse(listed.stdout) as { username: string }[]).some((u) => u.username === 'lockuser'));

        // In the same process too (an embedder starting the service twice).
        await assert.rejects(
          startServer({ port: 0, dataDir, databaseUrl: database?.url ?? null, logger: pino({ level: 'silent' }) }),
          new RegExp(`in use by garrison serve with pid ${first.process.pid}`),
        );

        first.process.child.kill('SIGKILL');
        await withDeadline(first.process.exited, 10_000, 'the first service to die');
        third = await serveProcess(flags, env, LISTEN_MS);
        const again = await apiClient(third.url)('POST', '/auth/login', {
          body: { username: 'admin', password: env.GARRISON_ADMIN_PASSWORD },
        });
        assert.equal(again.status, 200, 'the next one starts at once after a SIGKILL');
      } finally {
        await first.process.kill();
        await third?.process.kill();
        await database?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it(
    'on MySQL/MariaDB, refuses a second process of one node id from another data dir, naming where the holder runs; a SIGKILL lets it go',
    { ...SLOW, skip: !MYSQL && 'needs GARRISON_TEST_DATABASE' },
    async () => {
      const dirs = [await mkdtemp(join(tmpdir(), 'garrison-node-')), await mkdtemp(join(tmpdir(), 'garrison-node-'))];
      const database = await freshMysqlDatabase(MYSQL!);
      const env = { GARRISON_ADMIN_PASSWORD: 'lock-admin-password-1', GARRISON_NODE_ID: 'node-twice', GARRISON_DATABASE_URL: database.url };
      const first = await serveProcess(['--data-dir', dirs[0]], env, LISTEN_MS);
      let third: Awaited<ReturnType<typeof serveProcess>> | null = null;
      try {
        const second = await garrison(['serve', '--port', '0', '--data-dir', dirs[1]], { env, timeoutMs: LISTEN_MS });
        assert.equal(second.code, 1, second.stdout + second.stderr);
        const said = second.stdout + second.stderr;
        assert.match(
          said,
          /another instance is running with node id node-twice on this database \(it holds the lock garrison\.node\.\w+; database connection \d+ from [^;]+; started [^,]+, listening at http:\/\/[^)]+\)/,
        );
        assert.doesNotMatch(said, /listening on|re-adopted/, 'refused before it adopted anything');

        first.process.child.kill('SIGKILL');
        await withDeadline(first.process.exited, 10_000, 'the first service to die');
        third = await serveProcess(['--data-dir', dirs[1]], env, LISTEN_MS);
        const login = await apiClient(third.url)('POST', '/auth/login', {
          body: { username: 'admin', password: env.GARRISON_ADMIN_PASSWORD },
        });
        assert.equal(login.status, 200, 'the node starts again at once after a SIGKILL');
      } finally {
        await first.process.kill();
        await third?.process.kill();
        await database.drop();
        for (const dir of dirs) await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('lets the data dir go when the service stops, for the next one in the same process', SLOW, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-lock-'));
    const database = MYSQL ? await freshMysqlDatabase(MYSQL) : null;
    const start = () =>
      startServer({
        port: 0,
        dataDir,
        databaseUrl: database?.url ?? null,
        adminPassword: 'lock-admin-password-1',
        logger: pino({ level: 'silent' }),
      });
    try {
      const one = await start();
      await assert.rejects(start(), /is in use by garrison serve with pid/);
      await one.close();
      const two = await start();
      await two.close();
    } finally {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
