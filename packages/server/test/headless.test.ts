import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FakeClock } from '@garrison/server';
import { freeGamePorts, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { type GarrisonOptions } from '@garrison/testkit/harness';
import { GarrisonApiError, GarrisonClient } from '@garrison/sdk';
import { startHarness, type Harness } from './helpers.js';
import { advanceUntil, isAlive, killGames, wsClient, type FakeInstall } from './games.js';
import { serveProcess } from './cli-run.js';

const BACKOFF_MS = 5000;

const cmdline = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);

describe('headless clients, supervised on a fake clock', () => {
  let h: Harness;
  let fake: FakeInstall;
  const clock = new FakeClock();
  before(async () => {
    fake = await installFakeGameaTemp();
    for (const folder of ['@cba', '@admintools']) await mkdir(join(fake.dir, folder));
    const options: GarrisonOptions = { clock, stopTimeoutMs: 3000, restartBackoffMs: BACKOFF_MS, readyTimeoutMs: 600_000 };
    h = await startHarness(options);
  });
  after(async () => {
    await killGames(h, await headlessPids());
    await h.close();
    await fake.remove();
  });

  // Through the typed SDK, as an integrator would: its types are the API's own.
  const client = () => new GarrisonClient({ baseUrl: h.url, token: h.adminToken });
  const processes = (id: number) => client().servers.processes(id);
  const seenPids: number[] = [];
  const headlessPids = async () => seenPids;
  const until = <T>(predicate: () => Promise<T | false | null | undefined>, what: string) => advanceUntil(clock, predicate, what);

  it('takes 0 to 10 headless clients in create and update', async () => {
    const { servers } = client();
    await assert.rejects(
      servers.create({ name: 'x', exe_path: fake.exePath, ...(await freeGamePorts()), headless_clients: 11 }),
      (err: GarrisonApiError) => err.status === 400 && err.code === 'VALIDATION_ERROR',
    );
    const s = await servers.create({ name: 'x', exe_path: fake.exePath, ...(await freeGamePorts()), headless_clients: 2 });
    assert.equal(s.headless_clients, 2);
    assert.equal((await servers.update(s.id, { headless_clients: 0 })).headless_clients, 0);
    await servers.delete(s.id);
    await assert.rejects(servers.get(s.id), (err: GarrisonApiError) => err.code === 'NOT_FOUND');
  });

  it(
    'starts two after the server runs, restarts only the one that crashes after its back-off, gives up past the limit, and ' +
      'stops them first',
    async () => {
      const sdk = client();
      const s = await sdk.servers.create({
        name: 'HC',
        exe_path: fake.exePath,
        ...(await freeGamePorts()),
        headless_clients: 2,
        max_restarts: 1,
      });
      await sdk.mods.setEnabled(s.id, {
        mods: [
          { name: '@cba', is_server_mod: false },
          { name: '@admintools', is_server_mod: true },
        ],
      });
      const ws = await wsClient(h.url, `/ws?token=${h.viewerToken}&server_id=${s.id}`);
      try {
        const preview = (await sdk.config.preview(s.id))['server.cfg'];
        assert.match(preview, /^headlessClients\[\] = \{"127\.0\.0\.1"\};$/m);
        assert.match(preview, /^localClient\[\] = \{"127\.0\.0\.1"\};$/m);

        await sdk.servers.start(s.id);
        const started = await until(async () => {
          const list = await processes(s.id);
          return list.length === 3 && list.every((p) => p.status === 'running') && list;
        }, 'the server and two headless clients running');
        assert.deepEqual(
          started.map((p) => [p.role, p.index]),
          [
            ['server', 0],
            ['headless', 1],
            ['headless', 2],
          ],
        );
        const [server, hc1, hc2] = started as [(typeof started)[0], (typeof started)[0], (typeof started)[0]];
        seenPids.push(hc1.pid!, hc2.pid!);
        for (const [hc, index] of [
          [hc1, 1],
          [hc2, 2],
        ] as const) {
          const args = await cmdline(hc.pid!);
          for (const arg of [
            '-client',
            '-connect=127.0.0.1',
            `-port=${s.game_port}`,
            '-mod=@cba',
            `-profiles=${join(h.dataDir, 'servers', String(s.id), 'headless', String(index))}`,
            `-name=HC${index}`,
          ]) {
            assert.ok(args.includes(arg), `${arg} in ${args.join(' ')}`);
          }
          assert.ok(!args.some((a) => a.includes('@admintools')), 'never the server mods');
        }

        // One crashes: it alone comes back, after its back-off and not before.
        process.kill(hc1.pid!, 'SIGUSR2');
        await ws.next((m) => m.type === 'process_status' && m.data.index === 1 && m.data.status === 'crashed', 'the crash reported');
        await clock.advance(BACKOFF_MS - 1000);
        assert.equal((await processes(s.id))[1].status, 'crashed', 'still waiting out its back-off');
        const again = await until(async () => {
          const list = await processes(s.id);
          return list[1].status === 'running' && list;
        }, 'the headless client restarted');
        assert.notEqual(again[1].pid, hc1.pid);
        assert.equal(again[1].restart_count, 1);
        assert.equal(again[2].pid, hc2.pid, 'the other one untouched');
        assert.equal(again[0].pid, server.pid, 'the server untouched');
        seenPids.push(again[1].pid!);

        // Over the limit (max_restarts 1): it stays down and says so.
        process.kill(again[1].pid!, 'SIGUSR2');
        await ws.next((m) => m.type === 'process_status' && m.data.index === 1 && m.data.reason === 'gave_up', 'giving up reported');
        await clock.advance(BACKOFF_MS * 4);
        assert.equal((await processes(s.id))[1].status, 'crashed');
        const trail = (await sdk.servers.events(s.id)).events.map((e) => e.event_type);
        for (const type of ['headless_crashed', 'headless_restarted', 'headless_gave_up'] as const) assert.ok(trail.includes(type), type);

        // A stop takes the clients first, then the server.
        const stopping = sdk.servers.stop(s.id);
        await until(async () => !isAlive(hc2.pid!), 'the headless client to stop');
        assert.deepEqual(await stopping, { status: 'stopped' });
        const stopped = await processes(s.id);
        assert.ok(
          stopped.every((p) => p.status === 'stopped' || (p.index === 1 && p.status === 'crashed')),
          JSON.stringify(stopped),
        );
        assert.ok(stopped.every((p) => p.pid === null));
        assert.ok(!isAlive(server.pid!) && !isAlive(hc2.pid!));
      } finally {
        ws.close();
      }
    },
  );

  it("sends each running headless client's CPU and memory in the server's metrics events, for a live Processes table", async () => {
    const sdk = client();
    const s = await sdk.servers.create({ name: 'HC metrics', exe_path: fake.exePath, ...(await freeGamePorts()), headless_clients: 1 });
    const ws = await wsClient(h.url, `/ws?token=${h.viewerToken}&server_id=${s.id}`);
    try {
      await sdk.servers.start(s.id);
      const running = await until(async () => {
        const list = await processes(s.id);
        return list.length === 2 && list.every((p) => p.status === 'running') && list;
      }, 'the server and its headless client running');
      const hc = running.find((p) => p.role === 'headless')!;
      seenPids.push(hc.pid!);
      const event = await advanceUntil(
        clock,
        async () => ws.messages.find((m) => m.type === 'metrics' && m.data.headless?.length === 1),
        'a metrics event with the headless client',
        1000,
      );
      const [sample] = event.data.headless;
      assert.equal(sample.index, 1);
      assert.equal(sample.pid, hc.pid);
      assert.equal(typeof sample.cpu_percent, 'number');
      assert.ok(sample.ram_mb > 0, `memory ${sample.ram_mb} MB`);
      await sdk.servers.stop(s.id);
    } finally {
      ws.close();
    }
  });
});

describe('headless clients across a service killed and started again', () => {
  let fake: FakeInstall;
  const pids: number[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
  });
  after(async () => {
    for (const pid of pids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await fake.remove();
  });

  it('re-adopts the server and its clients, with no duplicates', { timeout: 120_000 }, async () => {
    const dataDir = join(fake.dir, 'garrison-data');
    const env = { GARRISON_ADMIN_PASSWORD: 'headless-password-1', GARRISON_STOP_TIMEOUT_MS: '3000' };
    const first = await serveProcess(['--data-dir', dataDir], env);
    let sdk = new GarrisonClient({ baseUrl: first.url });
    await sdk.login('admin', env.GARRISON_ADMIN_PASSWORD);
    const s = await sdk.servers.create({ name: 'HC', exe_path: fake.exePath, ...(await freeGamePorts()), headless_clients: 2 });
    await sdk.servers.start(s.id);
    const running = await waitFor(
      async () => {
        const list = await sdk.servers.processes(s.id);
        return list.length === 3 && list.every((p) => p.status === 'running') && list.map((p) => ({ ...p, pid: p.pid! }));
      },
      { timeoutMs: 60_000, what: 'three processes running' },
    );
    pids.push(...running.map((p) => p.pid));

    first.process.child.kill('SIGKILL');
    await first.process.exited;
    assert.ok(
      running.every((p) => isAlive(p.pid)),
      'the games outlive the service',
    );

    const second = await serveProcess(['--data-dir', dataDir], env);
    try {
      sdk = new GarrisonClient({ baseUrl: second.url });
      await sdk.login('admin', env.GARRISON_ADMIN_PASSWORD);
      const adopted = await sdk.servers.processes(s.id);
      assert.deepEqual(
        adopted.map((p) => [p.pid, p.status]),
        running.map((p) => [p.pid, 'running']),
      );
      assert.equal((await sdk.servers.get(s.id)).status, 'running');
      assert.equal((await sdk.servers.events(s.id, { event_type: 'adopted' })).total, 1);
      // Still supervised: a crash of a client is seen and it comes back (real time here: 2 s back-off).
      process.kill(running[2].pid, 'SIGUSR2');
      const back = await waitFor(
        async () => {
          const list = await sdk.servers.processes(s.id);
          return list[2].status === 'running' && list[2].pid !== running[2].pid && list[2].pid;
        },
        { timeoutMs: 30_000, what: 'the adopted client restarted' },
      );
      pids.push(back);
      assert.deepEqual(await sdk.servers.stop(s.id), { status: 'stopped' });
      assert.ok(
        [...running.map((p) => p.pid), back].every((pid) => !isAlive(pid)),
        'all gone',
      );
    } finally {
      await second.process.kill();
    }
  });
});
