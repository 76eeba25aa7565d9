import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, expectError, freshPort, setStatus, startHarness, type Harness } from './helpers.js';

const LIST_FIELDS = [
  'auto_restart',
  'cpu_percent',
  'description',
  'game_port',
  'game_type',
  'id',
  'max_restarts',
  'name',
  'pid',
  'player_count',
  'ram_mb',
  'rcon_port',
  'restart_count',
  'started_at',
  'status',
  'headless_clients',
  // Beyond the spec's fields: what the console shows at a glance.
  'hostname',
  'max_players',
  'mission',
  'warnings',
  // The node that runs it (a single instance: its own id) and whether that node is alive.
  'node_id',
  'node_online',
].sort();
const DETAIL_FIELDS = [...LIST_FIELDS, 'exe_path', 'uptime_seconds', 'backup_keep', 'backup_exclude'].sort();

describe('servers', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('creates a server with defaults and generated credentials, shown once', async () => {
    const port = freshPort();
    const res = await h.api('POST', '/servers', {
      token: h.adminToken,
      body: { name: 'Alpha', exe_path: 'C:\\games\\gamea\\gameaserver_x64.exe', game_port: port },
    });
    assert.equal(res.status, 201);
    const s = res.body.data;
    for (const field of DETAIL_FIELDS) assert.ok(field in s, `creation response has ${field}`);
    assert.equal(s.game_type, 'gamea');
    assert.equal(s.description, null);
    assert.equal(s.status, 'stopped');
    assert.equal(s.pid, null);
    assert.equal(s.rcon_port, port + 3);
    assert.equal(s.auto_restart, false);
    assert.equal(s.max_restarts, 3);
    assert.equal(s.restart_count, 0);
    assert.equal(s.player_count, null);
    assert.equal(s.uptime_seconds, 0);
    assert.match(s.password_admin, /^[A-Za-z0-9]{12,32}$/);
    assert.match(s.rcon_password, /^[A-Za-z0-9]{12,32}$/);
    assert.notEqual(s.password_admin, s.rcon_password);

    const detail = await h.api('GET', `/servers/${s.id}`, { token: h.adminToken });
    assert.equal(detail.status, 200);
    assert.deepEqual(Object.keys(detail.body.data).sort(), DETAIL_FIELDS);
    assert.ok(!JSON.stringify(detail.body).includes(s.rcon_password), 'credentials are not shown again');
    assert.ok(existsSync(join(h.dataDir, 'servers', String(s.id))), 'the server gets its own folder');
  });

  it('takes every optional field on creation', async () => {
    const port = freshPort();
    const s = await createServer(h, {
      description: 'desc',
      game_type: 'gamea',
      rcon_port: port + 7,
      auto_restart: true,
      max_restarts: 20,
      game_port: port,
    });
    assert.equal(s.description, 'desc');
    assert.equal(s.rcon_port, port + 7);
    assert.equal(s.auto_restart, true);
    assert.equal(s.max_restarts, 20);
  });

  it('refuses an unknown game type (400 GAME_TYPE_NOT_FOUND) and a disallowed executable (400 EXE_NOT_ALLOWED)', async () => {
    expectError(
      await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'x', game_type: 'nope', exe_path: '/a/gameaserver.exe', game_port: freshPort() },
      }),
      400,
      'GAME_TYPE_NOT_FOUND',
    );
    for (const exe of ['/opt/gamea/cmd.exe', '/opt/gamea/gameaserver_x64.exe.bat', 'gameaserver_x64', '/bin/sh']) {
      expectError(
        await h.api('POST', '/servers', { token: h.adminToken, body: { name: 'x', exe_path: exe, game_port: freshPort() } }),
        400,
        'EXE_NOT_ALLOWED',
      );
    }
  });

  it('refuses a port another server uses (409 PORT_IN_USE), as game or RCon port', async () => {
    const s = await createServer(h);
    const body = (extra: object) => ({ token: h.adminToken, body: { name: 'dup', exe_path: '/x/gameaserver.exe', ...extra } });
    expectError(await h.api('POST', '/servers', body({ game_port: s.game_port })), 409, 'PORT_IN_USE');
    expectError(await h.api('POST', '/servers', body({ game_port: s.rcon_port })), 409, 'PORT_IN_USE');
    expectError(await h.api('POST', '/servers', body({ game_port: freshPort(), rcon_port: s.game_port })), 409, 'PORT_IN_USE');
    const p = freshPort();
    expectError(await h.api('POST', '/servers', body({ game_port: p, rcon_port: p })), 409, 'PORT_IN_USE');
  });

  it('gives concurrent creations on one port exactly one winner', async () => {
    const port = freshPort();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.api('POST', '/servers', { token: h.adminToken, body: { name: 'race', exe_path: '/x/gameaserver.exe', game_port: port } }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
  });

  it('validates the create body with 400 VALIDATION_ERROR naming the field', async () => {
    const cases: [object, RegExp][] = [
      [{ exe_path: '/x/gameaserver.exe', game_port: 3000 }, /name/],
      [{ name: '', exe_path: '/x/gameaserver.exe', game_port: 3000 }, /name/],
      [{ name: 'x'.repeat(101), exe_path: '/x/gameaserver.exe', game_port: 3000 }, /name/],
      [{ name: 'x', description: 'd'.repeat(1001), exe_path: '/x/gameaserver.exe', game_port: 3000 }, /description/],
      [{ name: 'x', game_port: 3000 }, /exe_path/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe' }, /game_port/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: 1023 }, /game_port/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: 65536 }, /game_port/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: '3000' }, /game_port/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: 3000, rcon_port: 80 }, /rcon_port/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: 3000, max_restarts: 21 }, /max_restarts/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: 3000, auto_restart: 'yes' }, /auto_restart/],
      [{ name: 'x', exe_path: '/x/gameaserver.exe', game_port: 3000, colour: 'red' }, /colour/],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await h.api('POST', '/servers', { token: h.adminToken, body }), 400, 'VALIDATION_ERROR');
      assert.match(error.message, field, `message names the field for ${JSON.stringify(body)}`);
    }
    expectError(
      await h.api('POST', '/servers', { token: h.adminToken, body: { name: 'x', exe_path: '/x/gameaserver.exe', game_port: 65534 } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('lists servers in the list shape, filtered by game_type and paged by limit/offset', async () => {
    const res = await h.api('GET', '/servers', { token: h.viewerToken });
    assert.equal(res.status, 200);
    assert.ok(res.body.data.length >= 3);
    for (const s of res.body.data) assert.deepEqual(Object.keys(s).sort(), LIST_FIELDS);
    const ids = res.body.data.map((s: { id: number }) => s.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );

    assert.equal((await h.api('GET', '/servers?game_type=gamea', { token: h.viewerToken })).body.data.length, res.body.data.length);
    assert.deepEqual((await h.api('GET', '/servers?game_type=other', { token: h.viewerToken })).body.data, []);
    const page = await h.api('GET', '/servers?limit=2&offset=1', { token: h.viewerToken });
    assert.deepEqual(
      page.body.data.map((s: { id: number }) => s.id),
      ids.slice(1, 3),
    );
    expectError(await h.api('GET', '/servers?limit=501', { token: h.viewerToken }), 400, 'VALIDATION_ERROR');
    expectError(await h.api('GET', '/servers?limit=abc', { token: h.viewerToken }), 400, 'VALIDATION_ERROR');
    expectError(await h.api('GET', '/servers?offset=-1', { token: h.viewerToken }), 400, 'VALIDATION_ERROR');
    expectError(await h.api('GET', '/servers'), 401, 'UNAUTHORIZED');
  });

  it('answers 404 NOT_FOUND for a missing server and 400 for a malformed id', async () => {
    expectError(await h.api('GET', '/servers/999999', { token: h.viewerToken }), 404, 'NOT_FOUND');
    expectError(await h.api('PUT', '/servers/999999', { token: h.adminToken, body: { name: 'n' } }), 404, 'NOT_FOUND');
    expectError(await h.api('DELETE', '/servers/999999', { token: h.adminToken }), 404, 'NOT_FOUND');
    const bad = expectError(await h.api('GET', '/servers/abc', { token: h.viewerToken }), 400, 'VALIDATION_ERROR');
    assert.match(bad.message, /server_id/);
  });

  it('updates only the fields sent and keeps the others', async () => {
    const s = await createServer(h, { description: 'before' });
    const res = await h.api('PUT', `/servers/${s.id}`, { token: h.adminToken, body: { name: 'Renamed', max_restarts: 0 } });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'Renamed');
    assert.equal(res.body.data.max_restarts, 0);
    assert.equal(res.body.data.description, 'before');
    assert.equal(res.body.data.game_port, s.game_port);
    const cleared = await h.api('PUT', `/servers/${s.id}`, { token: h.adminToken, body: { description: null, auto_restart: true } });
    assert.equal(cleared.body.data.description, null);
    assert.equal(cleared.body.data.auto_restart, true);
    assert.equal((await h.api('GET', `/servers/${s.id}`, { token: h.viewerToken })).body.data.name, 'Renamed');
  });

  it('checks updates: port range, port conflicts, executable allowlist, unknown fields', async () => {
    const a = await createServer(h);
    const b = await createServer(h);
    expectError(await h.api('PUT', `/servers/${a.id}`, { token: h.adminToken, body: { game_port: 70000 } }), 400, 'VALIDATION_ERROR');
    expectError(await h.api('PUT', `/servers/${a.id}`, { token: h.adminToken, body: { game_port: b.game_port } }), 409, 'PORT_IN_USE');
    expectError(await h.api('PUT', `/servers/${a.id}`, { token: h.adminToken, body: { rcon_port: b.rcon_port } }), 409, 'PORT_IN_USE');
    expectError(await h.api('PUT', `/servers/${a.id}`, { token: h.adminToken, body: { exe_path: '/x/evil.exe' } }), 400, 'EXE_NOT_ALLOWED');
    expectError(await h.api('PUT', `/servers/${a.id}`, { token: h.adminToken, body: { status: 'running' } }), 400, 'VALIDATION_ERROR');
    const own = await h.api('PUT', `/servers/${a.id}`, { token: h.adminToken, body: { game_port: a.game_port, rcon_port: a.rcon_port } });
    assert.equal(own.status, 200, "a server's own ports are no conflict");
  });

  it('deletes a stopped server with its folder, and nothing else', async () => {
    const s = await createServer(h);
    const keep = await createServer(h);
    const folder = join(h.dataDir, 'servers', String(s.id));
    await mkdir(join(folder, 'battleye'), { recursive: true });
    await writeFile(join(folder, 'battleye', 'bans.txt'), 'x');
    const res = await h.api('DELETE', `/servers/${s.id}`, { token: h.adminToken });
    assert.equal(res.status, 204);
    assert.equal(res.body, null);
    assert.ok(!existsSync(folder));
    assert.ok(existsSync(join(h.dataDir, 'servers', String(keep.id))));
    assert.ok(existsSync(join(h.dataDir, 'jwt-secret')));
    expectError(await h.api('GET', `/servers/${s.id}`, { token: h.viewerToken }), 404, 'NOT_FOUND');
    expectError(await h.api('GET', `/servers/${s.id}/config`, { token: h.viewerToken }), 404, 'NOT_FOUND');
  });

  it('refuses to delete a starting or running server (409 SERVER_NOT_STOPPED) but deletes crashed and error ones', async () => {
    for (const status of ['starting', 'running']) {
      const s = await createServer(h);
      await setStatus(h, s.id, status);
      expectError(await h.api('DELETE', `/servers/${s.id}`, { token: h.adminToken }), 409, 'SERVER_NOT_STOPPED');
    }
    for (const status of ['crashed', 'error']) {
      const s = await createServer(h);
      await setStatus(h, s.id, status);
      assert.equal((await h.api('DELETE', `/servers/${s.id}`, { token: h.adminToken })).status, 204);
    }
  });

  it('keeps server changes to admins: viewers read, and get 403 for writes', async () => {
    const s = await createServer(h);
    assert.equal((await h.api('GET', `/servers/${s.id}`, { token: h.viewerToken })).status, 200);
    expectError(
      await h.api('POST', '/servers', {
        token: h.viewerToken,
        body: { name: 'v', exe_path: '/x/gameaserver.exe', game_port: freshPort() },
      }),
      403,
      'FORBIDDEN',
    );
    expectError(await h.api('PUT', `/servers/${s.id}`, { token: h.viewerToken, body: { name: 'v' } }), 403, 'FORBIDDEN');
    expectError(await h.api('DELETE', `/servers/${s.id}`, { token: h.viewerToken }), 403, 'FORBIDDEN');
  });
});
