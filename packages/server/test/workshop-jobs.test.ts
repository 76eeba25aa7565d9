import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFakeGameaTemp, installFakeSteamcmd, startFakeSteamWebApi, waitFor, type FakeSteamWebApi } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { expectError, startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, type FakeInstall } from './games.js';
import { APP, downloadsOf, owner, workshopCalls, workshopWorld } from './workshop-steam.js';

/*
 * The Workshop download job when SteamCMD does not simply succeed: an item that times out (retried), one
 * that fails (the job fails, the others stay installed), a cancel, and a restart of the service.
 */

const [D, E, F] = ['2300001', '2300002', '2300003'];
const TIMEOUT = { timeout: 90_000 };
const world = workshopWorld();
world.addItem(D, { app: APP, title: 'Delta', files: { 'addons/d.pbo': 'd\n', 'keys/delta.bikey': 'd\n' } });
world.addItem(E, { app: APP, title: 'Echo', files: { 'addons/e.pbo': 'e\n' } });
world.addItem(F, { app: APP, title: 'Foxtrot', files: { 'addons/f.pbo': 'f\n' } });

let api: FakeSteamWebApi;
let fake: FakeInstall;
let root: string;
let steamcmdPath: string;
before(async () => {
  api = await startFakeSteamWebApi({ world });
  fake = await installFakeGameaTemp();
  root = mkdtempSync(join(tmpdir(), 'garrison-workshop-jobs-'));
  steamcmdPath = (await installFakeSteamcmd(join(root, 'bin'))).executables[0];
});
after(async () => {
  await api?.close();
  await fake?.remove();
  world.remove();
  rmSync(root, { recursive: true, force: true });
});

const items = async (h: Harness, serverId: number) =>
  Object.fromEntries(
    ((await h.api('GET', `/servers/${serverId}/workshop`, { token: h.adminToken })).body.data as any[]).map((i) => [i.workshop_id, i]),
  ) as Record<string, any>;

describe('the Workshop download job, when Steam fails', () => {
  let h: Harness;
  let calls: ReturnType<typeof workshopCalls>;
  let serverId: number;
  const clock = new FakeClock(new Date('2030-01-01T00:00:00Z'));

  before(async () => {
    h = await startHarness({ clock, steamApiUrl: api.url, steamcmdPath, steamDir: join(root, 'steam') });
    calls = workshopCalls(h);
    await calls.setAccount();
    serverId = (await createGameServer(h, fake)).id;
  });
  after(async () => {
    world.setDelay(0);
    world.clearFaults();
    await h?.close();
  });

  it('retries an item that timed out; an item that fails fails the job, the other stays installed', TIMEOUT, async () => {
    world.setFault({ kind: 'item_timeouts', item: D, count: 1 });
    world.setFault({ kind: 'item_fail', item: E });
    const runs = world.invocations().length;
    const id = await calls.add(serverId, { items: [D, E] });
    // The retry waits on the service's clock: moved on until the job ends.
    const ended = await advanceUntil(
      clock,
      async () => {
        const job = await calls.job(id);
        return job.status !== 'queued' && job.status !== 'running' && job;
      },
      'the job with a retry',
      10_000,
    );
    assert.equal(ended.status, 'failed', JSON.stringify(ended));
    assert.equal(ended.error!.code, 'STEAM_ITEM_FAILED');
    assert.match(ended.error!.message, new RegExp(`1 of 2 Workshop items failed: ${E} \\(STEAM_ITEM_FAILED.*the 1 other is installed`));
    assert.ok(
      ended.log.some((l) => l.includes(`Workshop item ${D} timed out; another run`)),
      ended.log.join('\n'),
    );
    assert.deepEqual(downloadsOf(world, runs), [
      [D, E],
      [D, E],
    ]);
    const now = await items(h, serverId);
    assert.equal(now[D].status, 'installed');
    assert.deepEqual(now[D].keys, ['delta.bikey']);
    assert.equal(now[E].status, 'failed');
    assert.equal(now[E].error.code, 'STEAM_ITEM_FAILED');
    world.clearFaults();
  });

  it('cancels a download: a new item fails JOB_CANCELLED, an update of an installed one leaves it outdated', TIMEOUT, async () => {
    world.setDelay(1_000);
    const id = await calls.add(serverId, { items: [F] });
    await waitFor(async () => (await calls.job(id)).status === 'running', { timeoutMs: 20_000, what: 'the download under way' });
    assert.equal((await calls.api('DELETE', `/jobs/${id}`)).status, 200);
    assert.equal((await calls.ended(id)).status, 'cancelled');
    const now = await items(h, serverId);
    assert.equal(now[F].status, 'failed');
    assert.equal(now[F].error.code, 'JOB_CANCELLED');

    world.updateItem(D);
    const check = await calls.api('POST', `/servers/${serverId}/workshop/check`);
    assert.deepEqual(check.body.data.newly_outdated, [D]);
    const update = (await calls.api('POST', `/servers/${serverId}/workshop/update`)).body.data.job_id as number;
    await waitFor(async () => (await calls.job(update)).status === 'running', { timeoutMs: 20_000, what: 'the update under way' });
    assert.equal((await calls.api('DELETE', `/jobs/${update}`)).status, 200);
    assert.equal((await calls.ended(update)).status, 'cancelled');
    const after = await items(h, serverId);
    assert.equal(after[D].status, 'outdated', 'the installed version stays, still outdated');
    assert.equal(after[D].error, undefined);
    world.setDelay(0);
  });

  it('settles an item its job left queued (cancelled before it ran, expired, killed): failed, and removable', TIMEOUT, async () => {
    const queued = (updatedAt: number) =>
      withDatabase(h, (knex) =>
        knex('workshop_items')
          .where({ server_id: serverId, workshop_id: F })
          .update({ status: 'queued', updated_at: new Date(updatedAt).toISOString() }),
      );
    await queued(clock.now() - 120_000);
    const settled = await items(h, serverId);
    assert.equal(settled[F].status, 'failed');
    assert.equal(settled[F].error.code, 'JOB_INTERRUPTED');
    // One just recorded (its request is about to queue its job) is left alone a minute.
    await queued(clock.now());
    assert.equal((await items(h, serverId))[F].status, 'queued');
    expectError(await calls.api('DELETE', `/servers/${serverId}/workshop/${F}`), 409, 'CONFLICT');
    await clock.advance(61_000);
    assert.equal((await calls.api('DELETE', `/servers/${serverId}/workshop/${F}`)).status, 200);
  });
});

describe('a Workshop download cut short by a restart of the service', () => {
  const harnesses: Harness[] = [];
  after(async () => {
    world.setDelay(0);
    for (const h of harnesses.reverse()) await h.close();
  });

  it('ends failed JOB_INTERRUPTED, its item failed with the same reason', TIMEOUT, async () => {
    const options = { steamApiUrl: api.url, steamcmdPath, steamDir: join(root, 'steam-restart') };
    const first = await startHarness(options);
    harnesses.push(first);
    const calls = workshopCalls(first);
    await calls.setAccount();
    const serverId = (await createGameServer(first, fake, { name: 'Restarted' })).id;
    world.setDelay(1_000);
    const id = await calls.add(serverId, { items: [F] });
    await waitFor(async () => (await calls.job(id)).status === 'running', { timeoutMs: 20_000, what: 'the download under way' });
    await first.server.close(); // what SIGTERM does
    const second = await startHarness({ ...options, dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    harnesses.push(second);
    const job = (await second.api('GET', `/jobs/${id}`, { token: second.adminToken })).body.data;
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'JOB_INTERRUPTED');
    const item = (await items(second, serverId))[F];
    assert.equal(item.status, 'failed');
    assert.equal(item.error.code, 'JOB_INTERRUPTED');
    assert.ok(!JSON.stringify(job).includes(owner.password), 'no password in the job');
  });
});
