import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { freshMysqlDatabase } from '@garrison/testkit/harness';
import { startServer } from '../src/app.js';
import { createServer, expectError, startHarness, tokenFor, withDatabase, type Harness } from './helpers.js';

const MYSQL = process.env.GARRISON_TEST_DATABASE ?? 'mysql://root@127.0.0.1:3306/test';
const SECRET = 'a-cluster-secret-of-at-least-32-characters';

describe('nodes of a single instance', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ nodeId: 'solo-1' });
  });
  after(() => h.close());

  it('lists itself as the one node, online, with its servers; a server says it runs there', async () => {
    const s = await createServer(h);
    assert.equal(s.node_id, 'solo-1');
    assert.equal(s.node_online, true);
    const viewer = await tokenFor(h, 'viewer');
    const nodes = await h.api('GET', '/nodes', { token: viewer.token });
    assert.equal(nodes.status, 200);
    assert.equal(nodes.body.data.length, 1);
    const [node] = nodes.body.data;
    assert.deepEqual(
      Object.keys(node).sort(),
      ['draining', 'events_connected', 'game_types', 'id', 'last_seen', 'online', 'server_count', 'url', 'version'].sort(),
    );
    assert.equal(node.id, 'solo-1');
    assert.equal(node.online, true);
    assert.equal(node.events_connected, null, 'no event bus to connect to');
    assert.equal(node.url, h.url);
    assert.ok(node.server_count >= 1);
    assert.ok(node.game_types.includes('gamea'));
    assert.ok(!Number.isNaN(Date.parse(node.last_seen)));
    expectError(await h.api('PUT', '/nodes/solo-1', { token: viewer.token, body: { draining: true } }), 403, 'FORBIDDEN');
  });

  it('says the instance answering was last heard now, however long ago it registered', async () => {
    await withDatabase(h, (knex) =>
      knex('nodes')
        .where({ id: 'solo-1' })
        .update({
          last_seen: knex.raw(
            h.databaseUrl ? 'DATE_SUB(UTC_TIMESTAMP(3), INTERVAL 6 MINUTE)' : "strftime('%Y-%m-%d %H:%M:%f', 'now', '-6 minutes')",
          ),
        }),
    );
    const asked = Date.now();
    const [node] = (await h.api('GET', '/nodes', { token: h.adminToken })).body.data;
    assert.equal(node.online, true);
    assert.ok(
      Math.abs(Date.parse(node.last_seen) - asked) < 5_000,
      `last heard ${node.last_seen}, asked at ${new Date(asked).toISOString()}`,
    );
  });

  it('drains: no new server is placed on a draining node, and it takes them again once undrained', async () => {
    const drained = await h.api('PUT', '/nodes/solo-1', { token: h.adminToken, body: { draining: true } });
    assert.equal(drained.status, 200);
    assert.equal(drained.body.data.draining, true);
    try {
      expectError(
        await h.api('POST', '/servers', {
          token: h.adminToken,
          body: { name: 'nowhere', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 40200 },
        }),
        409,
        'CONFLICT',
      );
    } finally {
      await h.api('PUT', '/nodes/solo-1', { token: h.adminToken, body: { draining: false } });
    }
    assert.equal((await createServer(h)).node_id, 'solo-1');
  });

  it('refuses an unknown node, a bad id and a bad body', async () => {
    expectError(await h.api('PUT', '/nodes/elsewhere', { token: h.adminToken, body: { draining: true } }), 404, 'NOT_FOUND');
    expectError(await h.api('PUT', '/nodes/bad%20id', { token: h.adminToken, body: { draining: true } }), 400, 'VALIDATION_ERROR');
    expectError(await h.api('PUT', '/nodes/solo-1', { token: h.adminToken, body: { draining: 'yes' } }), 400, 'VALIDATION_ERROR');
    expectError(
      await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'x', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 40300, node_id: 'elsewhere' },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('cluster settings refused at start', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'garrison-cluster-settings-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));
  const start = (settings: Record<string, unknown>) =>
    startServer({ port: 0, dataDir, adminPassword: 'admin-password-1', logger: pino({ level: 'silent' }), ...settings });

  it('on SQLite: a cluster is for MySQL/MariaDB', async () => {
    await assert.rejects(
      start({ natsUrl: 'nats://127.0.0.1:4222', jwtSecret: SECRET, clusterSecret: SECRET }),
      /GARRISON_NATS_URL.*needs MySQL or MariaDB/,
    );
    await assert.rejects(start({ clusterSecret: SECRET }), /GARRISON_CLUSTER_SECRET.*needs MySQL or MariaDB/);
  });

  it('on MariaDB: without the shared secrets, or with cluster settings but no NATS', async () => {
    const database = await freshMysqlDatabase(MYSQL);
    try {
      const on = (settings: Record<string, unknown>) => start({ databaseUrl: database.url, ...settings });
      await assert.rejects(on({ natsUrl: 'nats://127.0.0.1:4222', clusterSecret: SECRET }), /needs GARRISON_JWT_SECRET/);
      await assert.rejects(on({ natsUrl: 'nats://127.0.0.1:4222', jwtSecret: SECRET }), /needs GARRISON_CLUSTER_SECRET/);
      await assert.rejects(on({ advertiseUrl: 'http://10.0.0.1:8080' }), /without GARRISON_NATS_URL/);
    } finally {
      await database.drop();
    }
  });
});
