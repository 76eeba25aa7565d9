import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeGamePorts, freePort, installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import { endpoints } from '@garrison/core';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { GarrisonApiError, GarrisonClient, GarrisonNetworkError, type RateLimitState } from '@garrison/sdk';

describe('GarrisonClient against a real service', () => {
  let g: TestGarrison;
  let client: GarrisonClient;
  before(async () => {
    g = await startGarrison();
    client = new GarrisonClient({ baseUrl: g.url });
    await client.login('admin', g.adminPassword);
  });
  after(() => g.close());

  it('logs in, and calls endpoints by id with typed parameters, queries and bodies', async () => {
    assert.deepEqual(await client.call('health'), { status: 'ok' }, 'an unwrapped answer as it is');
    const me = await client.call('me');
    assert.equal(me.username, 'admin');
    const created = await client.call('createServer', {
      body: { name: 'SDK', exe_path: '/srv/gamea/gameaserver_x64.exe', ...(await freeGamePorts()) },
    });
    assert.equal(created.name, 'SDK');
    assert.equal(typeof (created as Record<string, unknown>).rcon_password, 'string', 'the credentials shown once');
    const read = await client.call('getServer', { params: { server_id: created.id } });
    assert.equal(read.game_port, created.game_port);
    const page = await client.call('listServers', { query: { limit: 1, game_type: 'gamea' } });
    assert.equal(page.length, 1);
    const section = await client.call('getConfigSection', { params: { server_id: created.id, section: 'server' } });
    const updated = await client.call('updateConfigSection', {
      params: { server_id: created.id, section: 'server' },
      // A section's fields are the game's own: the contract types only what every section has.
      body: { hostname: 'From the SDK', config_version: section._meta.config_version } as { config_version: number },
    });
    assert.equal((updated as Record<string, unknown>).hostname, 'From the SDK');
    const text = await client.call('downloadConfigFile', { params: { server_id: created.id, filename: 'server.cfg' } });
    assert.match(text, /hostname = "From the SDK";/, 'a text answer as text');
    assert.equal(await client.call('deleteServer', { params: { server_id: created.id } }), undefined, '204 gives nothing');
  });

  it("throws GarrisonApiError with the status, the code, the message and a conflict's extra fields", async () => {
    const missing = await client.call('getServer', { params: { server_id: 999_999 } }).catch((e: unknown) => e);
    assert.ok(missing instanceof GarrisonApiError);
    assert.deepEqual([missing.status, missing.code], [404, 'NOT_FOUND']);

    const bad = await client
      .call('createUser', { body: { username: 'sdk-user', password: 'long-enough-1', role: 'owner' as 'admin' } })
      .catch((e: unknown) => e);
    assert.ok(bad instanceof GarrisonApiError);
    assert.equal(bad.code, 'VALIDATION_ERROR');
    assert.match(bad.message, /"admin", "viewer"/);

    const s = await client.call('createServer', {
      body: { name: 'Conflict', exe_path: '/srv/gamea/gameaserver_x64.exe', ...(await freeGamePorts()) },
    });
    const stale = await client
      .call('updateConfigSection', {
        params: { server_id: s.id, section: 'server' },
        body: { hostname: 'late', config_version: 99 } as { config_version: number },
      })
      .catch((e: unknown) => e);
    assert.ok(stale instanceof GarrisonApiError);
    assert.equal(stale.code, 'CONFIG_VERSION_CONFLICT');
    assert.equal(stale.extra.current_version, 1);
    assert.equal((stale.extra.current_config as { hostname: string }).hostname !== undefined, true);

    const anonymous = new GarrisonClient({ baseUrl: g.url });
    const refused = await anonymous.call('me').catch((e: unknown) => e);
    assert.ok(refused instanceof GarrisonApiError);
    assert.equal(refused.code, 'UNAUTHORIZED');
  });

  it('exposes Retry-After on a 429, retries after it only when asked to, and never waits longer than allowed', async () => {
    const limited = await startGarrison({ rateLimit: 2 });
    try {
      const told: number[] = [];
      const eager = new GarrisonClient({
        baseUrl: limited.url,
        token: limited.adminToken,
        onRateLimit: (state) => told.push(state.remaining),
      });
      assert.equal(eager.rateLimit, null, 'nothing known before an answer');
      let refused: unknown;
      for (let i = 0; i < 5 && !refused; i++)
        refused = await eager.call('listServers').then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.ok(refused instanceof GarrisonApiError, 'the limit was reached');
      // The budget as each answer reported it: what was left, down to the refusal's 0.
      assert.equal(told.at(-1), 0);
      assert.ok(told.length >= 2 && told.every((n, i) => i === 0 || n <= told[i - 1]), `remaining ${told}`);
      // (Read again: TypeScript would still take it for the null asserted above.)
      const budget = Reflect.get(eager, 'rateLimit') as RateLimitState;
      assert.equal(budget.limit, 2);
      assert.ok(budget.resetAt > Date.now() && budget.resetAt <= Date.now() + 61_000);
      assert.equal(refused.code, 'RATE_LIMITED');
      assert.ok(refused.retryAfterSeconds !== null && refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 60);

      const patient = new GarrisonClient({ baseUrl: limited.url, token: limited.adminToken, rateLimitRetries: 1, maxRetryWaitSeconds: 0 });
      const stillRefused = await patient.call('listServers').catch((e: unknown) => e);
      assert.ok(stillRefused instanceof GarrisonApiError, 'a wait longer than allowed is not waited for');

      // A 429 whose Retry-After has passed at once: retried when asked, thrown when not.
      let calls = 0;
      const once429 = (async (url: string | URL | Request, init?: RequestInit) =>
        ++calls === 1
          ? new Response(JSON.stringify({ success: false, data: null, error: { code: 'RATE_LIMITED', message: 'slow down' } }), {
              status: 429,
              headers: { 'retry-after': '0' },
            })
          : fetch(url, init)) as typeof fetch;
      const retrying = new GarrisonClient({ baseUrl: g.url, token: client.token, fetch: once429, rateLimitRetries: 1 });
      assert.deepEqual(await retrying.call('health'), { status: 'ok' });
      assert.equal(calls, 2);
      calls = 0;
      const notRetrying = new GarrisonClient({ baseUrl: g.url, token: client.token, fetch: once429 });
      assert.equal(((await notRetrying.call('health').catch((e: unknown) => e)) as GarrisonApiError).code, 'RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });

  it('groups every endpoint by resource, with positional ids', async () => {
    const folder = new URL('../src/resources/', import.meta.url);
    const source = (await Promise.all((await readdir(folder)).map((name) => readFile(new URL(name, folder), 'utf8')))).join('\n');
    // client.login() and loginSecondStep(); the alias is the same upload
    const onTheClient = ['login', 'loginTwoFactor', 'uploadMissionAlias'];
    for (const id of Object.keys(endpoints))
      if (!onTheClient.includes(id)) assert.match(source, new RegExp(`c\\.call\\('${id}'`), `${id} has a resource method`);

    const fake = await installFakeGameaTemp();
    try {
      assert.equal((await client.system.health()).status, 'ok');
      assert.ok((await client.games.list()).some((g) => g.game_type === 'gamea'));
      const s = await client.servers.create({ name: 'Grouped', exe_path: fake.exePath, ...(await freeGamePorts()) });
      assert.equal((await client.servers.get(s.id)).name, 'Grouped');
      assert.equal((await client.servers.update(s.id, { description: 'via the SDK' })).description, 'via the SDK');

      const section = await client.config.section(s.id, 'server');
      const updated = await client.config.update(s.id, 'server', { hostname: 'Grouped Ops' }, section._meta.config_version);
      assert.equal(updated.hostname, 'Grouped Ops');
      assert.match((await client.config.preview(s.id))['server.cfg'], /Grouped Ops/);

      const uploaded = await client.missions.upload(s.id, new Blob([Buffer.alloc(2048, 1)]), 'co10_Grouped.Altis.pbo');
      assert.deepEqual([uploaded.filename, uploaded.terrain, uploaded.file_size], ['co10_Grouped.Altis.pbo', 'Altis', 2048]);
      assert.deepEqual(
        (await client.missions.list(s.id)).missions.map((m) => m.filename),
        ['co10_Grouped.Altis.pbo'],
      );
      const rotation = await client.missions.rotation(s.id);
      const set = await client.missions.setRotation(s.id, [{ name: 'co10_Grouped.Altis', difficulty: 'Regular' }], rotation.config_version);
      assert.equal(set.missions.length, 1);

      const ban = await client.bans.create(s.id, { player_uid: 'a'.repeat(32), ban_type: 'GUID', reason: 'test', duration_minutes: 0 });
      assert.ok((await client.bans.list(s.id)).some((b) => b.id === ban.id));
      await client.bans.revoke(s.id, ban.id);

      const stopped = await client.servers.stop(s.id).catch((e: unknown) => e);
      assert.ok(stopped instanceof GarrisonApiError && stopped.code === 'SERVER_NOT_RUNNING');
      assert.ok((await client.servers.events(s.id, { limit: 50 })).events.length >= 0);
      await client.missions.setRotation(s.id, [], set.config_version);
      await client.missions.delete(s.id, 'co10_Grouped.Altis.pbo');
      await client.servers.delete(s.id);
    } finally {
      await fake.remove();
    }
  });

  it('uploads missions from a path, a Blob and a stream, streamed, with progress', async () => {
    const fake = await installFakeGameaTemp();
    const dir = await mkdtemp(join(tmpdir(), 'garrison-sdk-'));
    try {
      const s = await client.servers.create({ name: 'Uploads', exe_path: fake.exePath, ...(await freeGamePorts()) });
      const path = join(dir, 'co20_Path.Stratis.pbo');
      const content = Buffer.alloc(3 * 1024 * 1024 + 17, 3);
      await writeFile(path, content);
      const progress: { sent: number; total: number | null }[] = [];
      const fromPath = await client.missions.upload(s.id, path, undefined, { onProgress: (p) => progress.push(p) });
      assert.deepEqual([fromPath.filename, fromPath.file_size], ['co20_Path.Stratis.pbo', content.length]);
      assert.ok(progress.length > 1, 'progress as the bytes go');
      assert.deepEqual(progress.at(-1), { sent: content.length, total: content.length });

      const fromBlob = await client.missions.upload(s.id, new Blob([content.subarray(0, 1000)]), 'tdm_Blob.Altis.pbo');
      assert.equal(fromBlob.file_size, 1000);
      const fromStream = await client.missions.upload(
        s.id,
        (async function* () {
          for (let i = 0; i < 4; i++) yield new Uint8Array(256 * 1024).fill(i);
        })(),
        'coop_Stream.Tanoa.pbo',
      );
      assert.equal(fromStream.file_size, 1024 * 1024);
      assert.deepEqual((await client.missions.list(s.id)).missions.map((m) => m.filename).sort(), [
        'co20_Path.Stratis.pbo',
        'coop_Stream.Tanoa.pbo',
        'tdm_Blob.Altis.pbo',
      ]);

      const refused = await client.missions.upload(s.id, new Blob(['x']), 'readme.txt').catch((e: unknown) => e);
      assert.ok(refused instanceof GarrisonApiError && refused.code === 'ADAPTER_ERROR');
    } finally {
      await rm(dir, { recursive: true, force: true });
      await fake.remove();
    }
  });

  it(
    'throws GarrisonNetworkError when the service is not reached: ' + 'at once when refused, after timeoutMs when it does not answer',
    async () => {
      const closed = await freePort();
      const refused = await new GarrisonClient({ baseUrl: `http://127.0.0.1:${closed}/`, token: 't' })
        .call('health')
        .catch((e: unknown) => e);
      assert.ok(refused instanceof GarrisonNetworkError && refused instanceof TypeError);
      assert.deepEqual([refused.reason, refused.origin, refused.systemCode], ['unreachable', `http://127.0.0.1:${closed}`, 'ECONNREFUSED']);
      assert.equal(refused.message, `cannot reach http://127.0.0.1:${closed}: connection refused (ECONNREFUSED)`);

      const held: Socket[] = [];
      const silent = createTcpServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
        const began = Date.now();
        const timedOut = await new GarrisonClient({ baseUrl: origin, timeoutMs: 400 }).call('health').catch((e: unknown) => e);
        assert.ok(timedOut instanceof GarrisonNetworkError);
        assert.deepEqual([timedOut.reason, timedOut.message], ['timeout', `no answer from ${origin} within 0.4 s`]);
        assert.ok(Date.now() - began >= 400 && Date.now() - began < 10_000);
        assert.equal(held.length, 1, 'it connected');
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
      // A service that answers in time is read whole, the time-out notwithstanding.
      assert.deepEqual(await new GarrisonClient({ baseUrl: g.url, timeoutMs: 10_000 }).call('health'), { status: 'ok' });
    },
  );

  it('reads every page of the servers with servers.all', async () => {
    const asked: string[] = [];
    const pages = (async (input: string | URL | Request) => {
      const url = new URL(String(input));
      asked.push(url.search);
      const offset = Number(url.searchParams.get('offset'));
      const count = offset === 0 ? 500 : 3;
      return new Response(JSON.stringify({ success: true, data: Array.from({ length: count }, (_, i) => ({ id: offset + i + 1 })) }), {
        status: 200,
      });
    }) as typeof fetch;
    const all = await new GarrisonClient({ baseUrl: 'http://example.invalid', fetch: pages }).servers.all({ game_type: 'gamea' });
    assert.deepEqual(
      all.map((s) => s.id),
      Array.from({ length: 503 }, (_, i) => i + 1),
    );
    assert.deepEqual(asked, ['?game_type=gamea&limit=500&offset=0', '?game_type=gamea&limit=500&offset=500']);
  });

  it('reads the {detail} failure form too', async () => {
    const detailOnly = (async () =>
      new Response(JSON.stringify({ detail: { code: 'NOT_FOUND', message: 'gone' } }), { status: 404 })) as typeof fetch;
    const c = new GarrisonClient({ baseUrl: 'http://example.invalid', fetch: detailOnly });
    const err = await c.call('health').catch((e: unknown) => e);
    assert.ok(err instanceof GarrisonApiError);
    assert.deepEqual([err.status, err.code, err.message], [404, 'NOT_FOUND', 'gone']);
  });
});
