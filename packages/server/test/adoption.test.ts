import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { installFakeGameaTemp, startProcess, waitFor, withDeadline, type TestProcess } from '@garrison/testkit';
import { ADMIN_PASSWORD, makeApi, startHarness, withDatabase, type Harness } from './helpers.js';
import { serveProcess } from './cli-run.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { FAST_SUPERVISION, createGameServer, isAlive, killGames, serverRecord, statusBecomes, type FakeInstall } from './games.js';

/** The service again, on the same data dir and database as `h`. */
const restartOn = (h: Harness, options: Record<string, unknown> = {}) =>
  startHarness({ ...FAST_SUPERVISION, dataDir: h.dataDir, databaseUrl: h.databaseUrl, ...options });

describe('games outlive the service and are re-adopted', () => {
  let fake: FakeInstall;
  const harnesses: Harness[] = [];
  const receivers: Receiver[] = [];
  const pids: number[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
  });
  after(async () => {
    for (const h of harnesses.reverse()) {
      await killGames(h, pids);
      await h.close().catch(() => {});
    }
    for (const r of receivers) await r.close();
    await fake.remove();
  });
  const harness = async (options: Record<string, unknown> = {}) => {
    const h = await startHarness({ ...FAST_SUPERVISION, ...options });
    harnesses.push(h);
    return h;
  };

  it('keeps a game running across a stop of the service, and re-adopts it at the next start', async () => {
    const first = await harness();
    const s = await createGameServer(first, fake);
    const { pid } = (await first.api('POST', `/servers/${s.id}/start`, { token: first.adminToken })).body.data;
    pids.push(pid);
    await statusBecomes(first, s.id, 'running');
    await first.server.close(); // what SIGTERM does

    assert.ok(isAlive(pid), 'the game still runs without the service');
    const second = await restartOn(first);
    harnesses.push(second);
    const record = await serverRecord(second, s.id);
    assert.equal(record.status, 'running');
    assert.equal(record.pid, pid);
    const trail = (await second.api('GET', `/servers/${s.id}/events?event_type=adopted`, { token: second.adminToken })).body.data;
    assert.equal(trail.total, 1);

    // Fully managed again: remote admin, exit watching, stop.
    assert.equal(
      (await second.api('POST', `/servers/${s.id}/rcon/command`, { token: second.adminToken, body: { command: 'players' } })).status,
      200,
    );
    const stopped = await second.api('POST', `/servers/${s.id}/stop`, { token: second.adminToken });
    assert.deepEqual(stopped.body.data, { status: 'stopped' });
    assert.ok(!isAlive(pid));
  });

  it('notices the exit of an adopted game as a crash', async () => {
    const first = await harness();
    const s = await createGameServer(first, fake);
    const { pid } = (await first.api('POST', `/servers/${s.id}/start`, { token: first.adminToken })).body.data;
    pids.push(pid);
    await statusBecomes(first, s.id, 'running');
    await first.server.close();
    const second = await restartOn(first);
    harnesses.push(second);
    process.kill(-pid, 'SIGKILL');
    await statusBecomes(second, s.id, 'crashed');
  });

  it(
    'marks crashed, reports as a crash, and auto-restarts, a game that died while the service was down; ' + 'a recycled pid is not adopted',
    async () => {
      const first = await harness({ webhookAllowPrivate: true });
      const plain = await createGameServer(first, fake);
      const restarting = await createGameServer(first, fake, { auto_restart: true, max_restarts: 3 });
      const recycled = await createGameServer(first, fake);
      const receiver = await startReceiver();
      receivers.push(receiver);
      const hooked = await first.api('POST', '/webhooks', {
        token: first.adminToken,
        body: { url: receiver.url, kind: 'generic', events: ['server.crashed', 'server.restarted'] },
      });
      assert.equal(hooked.status, 201, JSON.stringify(hooked.body));
      const started: number[] = [];
      for (const s of [plain, restarting, recycled]) {
        started.push((await first.api('POST', `/servers/${s.id}/start`, { token: first.adminToken })).body.data.pid);
        await statusBecomes(first, s.id, 'running');
      }
      pids.push(...started);
      await first.server.close();
      for (const pid of started) process.kill(-pid, 'SIGKILL');
      await withDeadline(
        Promise.all(
          started.map(
            (pid) =>
              new Promise<void>((resolve) => {
                const check = () => (isAlive(pid) ? setTimeout(check, 20) : resolve());
                check();
              }),
          ),
        ),
        10_000,
        'the games to die',
      );

      // Another process now holds the recorded pid of the third server (as after a reboot): not the game.
      const impostor: TestProcess = startProcess('sleep', ['60']);
      try {
        await withDatabase(first, (knex) =>
          knex('processes').where({ server_id: recycled.id, role: 'server' }).update({ pid: impostor.pid }),
        );
        const second = await restartOn(first, { webhookAllowPrivate: true });
        harnesses.push(second);
        assert.equal((await serverRecord(second, plain.id)).status, 'crashed');
        assert.equal((await serverRecord(second, recycled.id)).status, 'crashed');
        assert.ok(isAlive(impostor.pid), 'the impostor was left alone');
        const back = await statusBecomes(second, restarting.id, 'running');
        pids.push(back.pid);
        assert.equal(back.restart_count, 1);
        // The crash as any other: its entry (with when it was found) and its webhook, then the restart's.
        const crashed = (await second.api('GET', `/servers/${plain.id}/events?event_type=crashed`, { token: second.adminToken })).body.data;
        assert.equal(crashed.total, 1);
        assert.equal(crashed.events[0].detail.found_at_start, true);
        assert.ok(
          Date.parse(crashed.events[0].detail.found_at) >= Date.parse(crashed.events[0].timestamp) - 1_000,
          'the time it was found',
        );
        const told = await waitFor(
          () => {
            const types = receiver.received.map((r) => r.json as { type: string; data: { server_id: number } });
            const crashes = new Set(types.filter((t) => t.type === 'server.crashed').map((t) => t.data.server_id));
            const restarts = types.filter((t) => t.type === 'server.restarted' && t.data.server_id === restarting.id);
            return crashes.size === 3 && restarts.length === 1 && types;
          },
          { what: 'server.crashed for the three games and server.restarted for the one that restarts' },
        );
        const firstOfRestarting = told.findIndex((t) => t.data.server_id === restarting.id);
        assert.equal(told[firstOfRestarting].type, 'server.crashed', 'the crash is told before the restart');
      } finally {
        await impostor.kill();
      }
    },
  );

  it('stops cleanly in the middle of handling a crash and its auto-restart; the crash is never lost', async () => {
    const late: unknown[] = [];
    const onLate = (err: unknown) => late.push(err);
    process.on('unhandledRejection', onLate);
    try {
      // The service's stop lands before, during and after the crash handling and the restart's back-off.
      for (const pauseMs of [0, 30, 60, 90]) {
        const first = await harness({ restartBackoffMs: 40 });
        const s = await createGameServer(first, fake, { auto_restart: true, max_restarts: 3 });
        const { pid } = (await first.api('POST', `/servers/${s.id}/start`, { token: first.adminToken })).body.data;
        pids.push(pid);
        await statusBecomes(first, s.id, 'running');
        process.kill(-pid, 'SIGKILL');
        await delay(pauseMs);
        await first.server.close();

        const second = await restartOn(first, { restartBackoffMs: 40 });
        harnesses.push(second);
        const record = await serverRecord(second, s.id);
        if (record.pid !== null) pids.push(record.pid);
        assert.ok(record.pid === null || isAlive(record.pid), `a recorded pid runs (status ${record.status})`);
        const trail = (await second.api('GET', `/servers/${s.id}/events?limit=100`, { token: second.adminToken })).body.data;
        const types = trail.events.map((e: { event_type: string }) => e.event_type);
        assert.ok(types.includes('crashed'), `the crash is in the trail: ${types.join(', ')}`);
      }
      assert.deepEqual(late, [], 'nothing failed after the service stopped');
    } finally {
      process.off('unhandledRejection', onLate);
    }
  });

  it('keeps a game running when the service is killed with SIGKILL, and re-adopts it', async () => {
    const setup = await harness();
    const s = await createGameServer(setup, fake);
    await setup.server.close();

    const service = await serveProcess(['--data-dir', setup.dataDir, ...(setup.databaseUrl ? ['--database', setup.databaseUrl] : [])]);
    try {
      const url = service.url;
      const api = makeApi(url);
      const token = (await api('POST', '/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).body.data.access_token;
      const { pid } = (await api('POST', `/servers/${s.id}/start`, { token })).body.data;
      pids.push(pid);
      await statusBecomes({ ...setup, api, adminToken: token }, s.id, 'running');

      service.process.child.kill('SIGKILL');
      await withDeadline(service.process.exited, 10_000, 'the service to die');
      assert.ok(isAlive(pid), 'the game survived the SIGKILL of the service');

      const again = await restartOn(setup);
      harnesses.push(again);
      const record = await serverRecord(again, s.id);
      assert.equal(record.status, 'running');
      assert.equal(record.pid, pid);
      // A stop of the adopted game (not this process's child) answers once the game is gone.
      const stopped = await again.api('POST', `/servers/${s.id}/stop`, { token: again.adminToken });
      assert.deepEqual(stopped.body.data, { status: 'stopped' });
      assert.ok(!isAlive(pid), 'gone when the stop answered');
    } finally {
      await service.process.kill();
    }
  });
});
