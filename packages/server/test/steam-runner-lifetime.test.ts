import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_STEAM_ACCOUNTS, FAKE_STEAM_IDS, FakeSteamWorld, installFakeSteamcmd, waitFor } from '@garrison/testkit';
import { createServer, startHarness, type Harness } from './helpers.js';

/*
 * SteamCMD never outlives the service that started it: a stop ends it, and a start ends the one the last
 * run of the service left running (recorded in the steam dir), so that two never work on the same files.
 */

const world = FakeSteamWorld.create();
Object.assign(process.env, world.env());
const root = mkdtempSync(join(tmpdir(), 'garrison-steam-lifetime-'));
after(() => {
  world.remove();
  rmSync(root, { recursive: true, force: true });
});

/** The first game's dedicated server, as its adapter declares it; the fake world gets an app of that id. */
const APP = '233780';
const steamDir = join(root, 'steam');
const pidFile = join(steamDir, 'steamcmd.pid');

/** Whether `pid` runs (a zombie has ended: only its exit status waits to be collected). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

describe('the life of a SteamCMD run', () => {
  let executable: string;
  let h: Harness;
  let serverId: number;

  const start = async () => {
    const harness = await startHarness({ steamcmdPath: executable, steamDir });
    assert.equal((await harness.api('PUT', '/steam/account', { token: harness.adminToken, body: FAKE_STEAM_ACCOUNTS.owner })).status, 200);
    return harness;
  };
  const install = async (on: Harness, id: number) => {
    const res = await on.api('POST', `/servers/${id}/install`, { token: on.adminToken });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data.job_id as number;
  };
  /** The pid of the SteamCMD running now, once it is recorded. */
  const running = () =>
    waitFor(() => (existsSync(pidFile) ? (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid : null), {
      timeoutMs: 10_000,
      what: 'the running SteamCMD recorded',
    });

  before(async () => {
    world.edit((s) => {
      s.apps[APP] = { ...s.apps[FAKE_STEAM_IDS.serverApp], branches: { public: { buildid: '10000', timeupdated: 1_700_000_000 } } };
      for (const account of Object.values(s.accounts)) if (account.owns.includes(FAKE_STEAM_IDS.serverApp)) account.owns.push(APP);
    });
    executable = (await installFakeSteamcmd(join(root, 'bin'))).executables[0];
    h = await start();
    serverId = (await createServer(h, { exe_path: join(root, 'server', 'gameaserver_x64.exe') })).id;
  });
  after(() => h?.close());

  it('ends at the next start the SteamCMD the last run of the service left running', async () => {
    world.setDelay(5000); // a run that outlasts the start of a service (its migrations, on MariaDB, take seconds)
    const jobId = await install(h, serverId);
    const pid = await running();
    const log = async () => (await h.api('GET', `/jobs/${jobId}`, { token: h.adminToken })).body.data.log as string[];
    await waitFor(async () => (await log()).some((line) => line.startsWith('Logging in user')), {
      timeoutMs: 10_000,
      what: 'SteamCMD logged in (its runscript read)',
    });
    assert.ok(alive(pid));
    // A second service on the same steam dir starts as the next one would after a crash of the first.
    const next = await start();
    try {
      await waitFor(() => !alive(pid), { timeoutMs: 5_000, what: 'the leftover SteamCMD killed' });
      const job = await waitFor(
        async () => {
          const data = (await h.api('GET', `/jobs/${jobId}`, { token: h.adminToken })).body.data;
          return data.status === 'running' || data.status === 'queued' ? null : data;
        },
        { timeoutMs: 10_000, what: 'the cut-short job ended' },
      );
      assert.equal(job.status, 'failed', JSON.stringify(job));
    } finally {
      await next.close();
    }
  });

  it('ends the run under way when the service stops', async () => {
    world.setDelay(1000);
    await install(h, serverId);
    const pid = await running();
    assert.ok(alive(pid));
    await h.close();
    assert.ok(!alive(pid), 'SteamCMD ended with the service');
    assert.ok(!existsSync(pidFile), 'and its record with it');
    world.setDelay(0);
  });
});
