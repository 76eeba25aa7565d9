import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '@garrison/server';
import { installFakeGameaTemp, installFakeSteamcmd, startFakeSteamWebApi, waitFor, type FakeSteamWebApi } from '@garrison/testkit';
import { startHarness, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, GAME_ON_FAKE_CLOCK, killGames, type FakeInstall } from './games.js';
import { APP, downloadsOf, workshopCalls, workshopWorld } from './workshop-steam.js';

const [A, B] = ['2300001', '2300002'];
const world = workshopWorld();

/** A schedule's `update_mods`: the outdated items downloaded while the server runs, and a restart only when there were some. */
describe('the schedule action update_mods', () => {
  let api: FakeSteamWebApi;
  let fake: FakeInstall;
  let h: Harness;
  let root: string;
  let calls: ReturnType<typeof workshopCalls>;
  const clock = new FakeClock(new Date('2030-01-01T00:00:00Z'));

  before(async () => {
    world.addItem(A, { app: APP, title: 'Alpha', files: { 'Addons/A.pbo': 'a\n', 'Keys/A.bikey': 'a\n' } });
    world.addItem(B, { app: APP, title: 'Bravo', files: { 'Addons/B.pbo': 'b\n' } });
    api = await startFakeSteamWebApi({ world });
    fake = await installFakeGameaTemp();
    mkdirSync(join(fake.dir, 'keys'), { recursive: true });
    writeFileSync(join(fake.dir, 'keys', 'a3.bikey'), 'game\n');
    root = mkdtempSync(join(tmpdir(), 'garrison-workshop-schedule-'));
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    h = await startHarness({
      clock,
      ...GAME_ON_FAKE_CLOCK,
      steamApiUrl: api.url,
      steamcmdPath: executables[0],
      steamDir: join(root, 'steam'),
    });
    calls = workshopCalls(h);
  });
  after(async () => {
    if (h) await killGames(h);
    await h?.close();
    await api?.close();
    await fake?.remove();
    world.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'ends the run when every item is current, and downloads exactly the updated one before the restart',
    { timeout: 180_000 },
    async () => {
      const s = await createGameServer(h, fake);
      const bad = await calls.api('POST', `/servers/${s.id}/schedules`, {
        name: 'Odd',
        cron: '0 0 1 1 *',
        steps: [{ at_s: 0, action: 'update_mods', payload: { all: true } }],
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /steps\[0\]\.payload\.all'?: update_mods takes no payload/);

      await calls.setAccount();
      await calls.install(s.id, { items: [A, B] });
      assert.equal((await calls.api('POST', `/servers/${s.id}/start`)).status, 200);
      const server = async () => (await calls.api('GET', `/servers/${s.id}`)).body.data as { status: string; pid: number | null };
      await advanceUntil(clock, async () => (await server()).status === 'running', 'the server running');
      const { pid } = await server();
      const made = await calls.api('POST', `/servers/${s.id}/schedules`, {
        name: 'Mods',
        cron: '0 0 1 1 *', // runs when asked to
        steps: [
          { at_s: -60, action: 'update_mods' },
          { at_s: 0, action: 'restart' },
        ],
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = made.body.data.id as number;
      const runs = async () =>
        (await calls.api('GET', `/servers/${s.id}/schedules/${id}/runs?limit=100`)).body.data.items as {
          status: string;
          reason: string | null;
        }[];
      const runNow = async () => assert.equal((await calls.api('POST', `/servers/${s.id}/schedules/${id}/run`)).status, 202);
      const downloadsBefore = world.invocations().length;

      // Every item current: the run ends at its first step, nothing is downloaded, the server keeps running.
      await runNow();
      const first = await waitFor(
        async () => {
          const all = await runs();
          return all.length > 0 && !['running', 'queued'].includes(all[0].status) && all[0];
        },
        { what: 'the first run' },
      );
      assert.equal(first.status, 'skipped', JSON.stringify(first));
      assert.match(first.reason!, /nothing to update/);
      assert.equal(world.invocations().length, downloadsBefore, 'no SteamCMD run');
      assert.equal((await server()).pid, pid, 'not restarted');

      // B updated on Steam: the next run downloads B alone, then restarts the server.
      world.updateItem(B, { files: { 'Addons/B.pbo': 'b, build 2\n' } });
      await runNow();
      const second = await advanceUntil(
        clock,
        async () => {
          const all = await runs();
          return all.length > 1 && !['running', 'queued'].includes(all[0].status) && all[0];
        },
        'the second run',
        1_000,
      );
      assert.equal(second.status, 'succeeded', JSON.stringify(second));
      assert.deepEqual(downloadsOf(world, downloadsBefore), [[B]]);
      const items = (await calls.api('GET', `/servers/${s.id}/workshop`)).body.data as { workshop_id: string; status: string }[];
      assert.deepEqual(
        items.map((i) => [i.workshop_id, i.status]),
        [
          [A, 'installed'],
          [B, 'installed'],
        ],
      );
      await advanceUntil(clock, async () => (await server()).status === 'running', 'running again', 1_000);
      assert.notEqual((await server()).pid, pid, 'restarted');
    },
  );
});
