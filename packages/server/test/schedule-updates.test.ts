import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '@garrison/server';
import { FAKE_STEAM_ACCOUNTS, FAKE_STEAM_IDS, FakeSteamWorld, installFakeGamea, installFakeSteamcmd, waitFor } from '@garrison/testkit';
import { startHarness, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, GAME_ON_FAKE_CLOCK, killGames } from './games.js';

// The fake steamcmd reads its world from the environment it is spawned with: the service's own.
const world = FakeSteamWorld.create();
Object.assign(process.env, world.env());
after(() => world.remove());

/** The first game's dedicated server, as its adapter declares it. */
const APP = '233780';

function publicBuild(buildid: string): void {
  world.edit((s) => {
    s.apps[APP] = { ...s.apps[FAKE_STEAM_IDS.serverApp], branches: { public: { buildid, timeupdated: 1_700_000_000 } } };
    for (const account of Object.values(s.accounts)) if (account.owns.includes(FAKE_STEAM_IDS.serverApp)) account.owns.push(APP);
  });
}

/** A schedule's `update_server`: the run goes on to its restart, which installs the new build, only when Steam has one. */
describe('the schedule action update_server', () => {
  let h: Harness;
  let root: string;
  let serverId: number;
  const clock = new FakeClock(new Date('2026-07-01T00:00:30Z'));
  const api = (method: string, path: string, body?: unknown) => h.api(method, path, { token: h.adminToken, body });
  /** Waits for `ready`, moving the fake clock on by 5 s between looks (a job's end is looked at every 5 s). */
  const until = <T>(ready: () => Promise<T | false | null>, what: string) => advanceUntil(clock, ready, what, 1_000);
  const runs = async (id: number) =>
    (await api('GET', `/servers/${serverId}/schedules/${id}/runs?limit=100`)).body.data.items as {
      status: string;
      reason: string | null;
      steps: { status: string }[];
    }[];
  const server = async () => (await api('GET', `/servers/${serverId}`)).body.data as { status: string; pid: number | null };

  before(async () => {
    publicBuild('10000');
    root = await mkdtemp(join(tmpdir(), 'garrison-schedule-updates-'));
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    const game = await installFakeGamea(join(root, 'server'));
    h = await startHarness({ clock, ...GAME_ON_FAKE_CLOCK, steamcmdPath: executables[0], steamDir: join(root, 'steam') });
    serverId = (await createGameServer(h, { dir: game.dir, exePath: game.executables[0], remove: async () => undefined })).id;
    assert.equal((await api('PUT', '/steam/account', FAKE_STEAM_ACCOUNTS.owner)).status, 200);
    const job = (await api('POST', `/servers/${serverId}/install`)).body.data.job_id as number;
    await until(async () => (await api('GET', `/jobs/${job}`)).body.data.status === 'done', 'the first install');
  });
  after(async () => {
    if (h) await killGames(h);
    await h?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses a payload to update_server when the schedule is saved', async () => {
    const res = await api('POST', `/servers/${serverId}/schedules`, {
      name: 'Odd',
      cron: '0 * * * *',
      steps: [{ at_s: 0, action: 'update_server', payload: { branch: 'x' } }],
    });
    assert.equal(res.status, 400);
    assert.match(res.body.error.message, /steps\[0\]\.payload\.branch'?: update_server takes no payload/);
  });

  it(
    'ends the run when the server is up to date, and restarts it with the new build when Steam has one',
    { timeout: 180_000 },
    async () => {
      assert.equal((await api('POST', `/servers/${serverId}/start`)).status, 200);
      await advanceUntil(clock, async () => (await server()).status === 'running', 'the server running');
      const { pid } = await server();
      const made = await api('POST', `/servers/${serverId}/schedules`, {
        name: 'Nightly update',
        cron: '0 0 1 1 *', // runs when asked to
        steps: [
          { at_s: -60, action: 'update_server' },
          { at_s: 0, action: 'restart' },
        ],
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = made.body.data.id as number;

      const runNow = async () => assert.equal((await api('POST', `/servers/${serverId}/schedules/${id}/run`)).status, 202);
      // Steam's build is the installed one: the run ends at its first step, and the server keeps running.
      // The clock stands still while SteamCMD is asked (its limit is on the clock).
      await runNow();
      const first = await waitFor(
        async () => {
          const all = await runs(id);
          return all.length > 0 && !['running', 'queued'].includes(all[0].status) && all[0];
        },
        { what: 'the first run' },
      );
      assert.equal(first.status, 'skipped', JSON.stringify(first));
      assert.match(first.reason!, /the server is up to date \(build 10000 of branch public\)/);
      assert.equal((await server()).pid, pid, 'not restarted');

      // Steam has a new build: the next run restarts the server, installing it while it is down.
      publicBuild('10007');
      // What Steam answered is kept a while (10 minutes for a schedule): Steam is asked again after that.
      await clock.advance(11 * 60_000);
      await runNow();
      await waitFor(async () => (await runs(id))[0]?.steps[0].status === 'succeeded', { what: 'a newer build found' });
      const second = await until(async () => {
        const all = await runs(id);
        return all.length > 1 && !['running', 'queued'].includes(all[0].status) && all[0];
      }, 'the second run');
      assert.equal(second.status, 'succeeded', JSON.stringify(second));
      assert.equal((await api('GET', `/servers/${serverId}/install`)).body.data.build_id, '10007');
      await until(async () => (await server()).status === 'running', 'running again');
      assert.notEqual((await server()).pid, pid, 'restarted');
    },
  );
});
