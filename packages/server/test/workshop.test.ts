import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_STEAM_IDS, installFakeGameaTemp, installFakeSteamcmd, startFakeSteamWebApi, type FakeSteamWebApi } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { gamea } from '@garrison/adapter-gamea';
import { expectError, setStatus, startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, type FakeInstall } from './games.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { APP, downloadsOf, workshopCalls, workshopWorld } from './workshop-steam.js';

/*
 * The Workshop items of a server over HTTP: the real endpoints and download job, the fake steamcmd and
 * the fake Steam Web API; items installed, listed among the mods, removed, checked for updates on a fake
 * clock, and exactly the outdated ones downloaded again.
 */

const [A, B, C] = ['2200001', '2200002', '2200003'];
const COLLECTION = '3200001';
const TIMEOUT = { timeout: 60_000 };
const world = workshopWorld();

describe('Workshop items', () => {
  let api: FakeSteamWebApi;
  let fake: FakeInstall;
  let h: Harness;
  let receiver: Receiver;
  let root: string;
  let calls: ReturnType<typeof workshopCalls>;
  const clock = new FakeClock(new Date('2030-01-01T00:00:00Z'));

  before(async () => {
    world.addItem(A, { app: APP, title: 'Alpha Core', modName: 'Alpha', files: { 'Addons/Alpha.pbo': 'a\n', 'Keys/Shared.bikey': 's\n' } });
    world.addItem(B, { app: APP, title: 'Bravo', meta: false, files: { 'AddOns/B.pbo': 'b\n', 'extra/Shared.bikey': 's\n' } });
    world.addItem(C, { app: APP, title: 'Charlie', files: { 'c.pbo': 'c\n', 'c.bikey': 'c\n' } });
    world.setCollection(COLLECTION, [B, C]);
    api = await startFakeSteamWebApi({ world });
    fake = await installFakeGameaTemp();
    mkdirSync(join(fake.dir, '@local_mod'));
    mkdirSync(join(fake.dir, 'keys'), { recursive: true });
    writeFileSync(join(fake.dir, 'keys', 'a3.bikey'), 'game\n');
    root = mkdtempSync(join(tmpdir(), 'garrison-workshop-'));
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    receiver = await startReceiver();
    h = await startHarness({
      clock,
      steamApiUrl: api.url,
      steamcmdPath: executables[0],
      steamDir: join(root, 'steam'),
      webhookAllowPrivate: true,
    });
    calls = workshopCalls(h);
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
    await api?.close();
    await fake?.remove();
    world.remove();
    rmSync(root, { recursive: true, force: true });
  });

  const list = (serverId: number, token = h.viewerToken) => h.api('GET', `/servers/${serverId}/workshop`, { token });
  const byId = async (serverId: number) =>
    Object.fromEntries(((await list(serverId)).body.data as { workshop_id: string }[]).map((i) => [i.workshop_id, i])) as Record<
      string,
      any
    >;
  const keys = () => readdirSync(join(fake.dir, 'keys')).sort();

  it('refuses what it cannot download before any job: a bad id, nothing, no account, a viewer', TIMEOUT, async () => {
    const s = await createGameServer(h, fake);
    const bad = expectError(await calls.api('POST', `/servers/${s.id}/workshop`, { items: [A, '+quit'] }), 400, 'VALIDATION_ERROR');
    assert.match(bad.message, /items\[1\]/);
    expectError(await calls.api('POST', `/servers/${s.id}/workshop`, { collection: 'https://example.com/x' }), 400, 'VALIDATION_ERROR');
    expectError(await calls.api('POST', `/servers/${s.id}/workshop`, { items: [] }), 400, 'VALIDATION_ERROR');
    expectError(await calls.api('POST', `/servers/${s.id}/workshop`, {}), 400, 'VALIDATION_ERROR');
    expectError(await h.api('POST', `/servers/${s.id}/workshop`, { token: h.viewerToken, body: { items: [A] } }), 403, 'FORBIDDEN');
    expectError(await calls.api('POST', `/servers/${s.id}/workshop`, { items: [A] }), 409, 'STEAM_ACCOUNT_REQUIRED');
    assert.deepEqual(await byId(s.id), {}, 'nothing queued');
    assert.equal(downloadsOf(world).length, 0);
  });

  it('installs three items and a collection through one job each, lists them, and shows them among the mods', TIMEOUT, async () => {
    const [s] = (await calls.api('GET', '/servers')).body.data as { id: number }[];
    await calls.setAccount();
    const url = `https://steamcommunity.com/sharedfiles/filedetails/?id=${B}`;
    const first = await calls.install(s.id, { items: [A, url, C] });
    assert.equal(first.kind, 'steam.workshop');
    assert.equal(first.progress, 1);
    assert.ok(
      first.log.some((l) => l.includes(`Success. Downloaded item ${B}`)),
      first.log.join('\n'),
    );
    const runs = world.invocations();
    assert.equal(runs.length, 1, 'one run');
    assert.equal(runs[0].argv.filter((a) => a === '+login').length, 1, 'one login for all the items');
    assert.deepEqual(downloadsOf(world), [[A, B, C]]);
    expectError(await calls.api('POST', `/servers/${s.id}/workshop`, { collection: '3299999' }), 404, 'WORKSHOP_ITEM_NOT_FOUND');
    world.setCollection(
      '3200009',
      Array.from({ length: 501 }, (_, i) => String(2400000 + i)),
    );
    const huge = expectError(await calls.api('POST', `/servers/${s.id}/workshop`, { collection: '3200009' }), 400, 'VALIDATION_ERROR');
    assert.match(huge.message, /501 Workshop items at once: at most 500/);
    await calls.install(s.id, { collection: COLLECTION });
    assert.deepEqual(downloadsOf(world, 1), [[B, C]]);
    const items = await byId(s.id);
    const a = world.read().items[A];
    assert.deepEqual(
      { ...items[A], installed_at: typeof items[A].installed_at },
      {
        workshop_id: A,
        name: 'Alpha Core',
        folder: '@alpha_core',
        status: 'installed',
        time_updated: new Date(a.time_updated * 1000).toISOString(),
        installed_at: 'string',
        size_bytes: a.file_size,
        keys: ['shared.bikey'],
      },
    );
    assert.deepEqual(
      [items[B].folder, items[B].keys, items[C].folder, items[C].keys],
      ['@bravo', ['shared.bikey'], '@charlie', ['c.bikey']],
    );
    // Lower case in the installation only (the fake game's Linux server wants it): SteamCMD's folder keeps its names.
    const lower = process.platform === 'linux' && gamea.steam?.lower_case_on_linux;
    assert.equal(lstatSync(join(fake.dir, '@bravo')).isSymbolicLink(), !lower);
    assert.equal(existsSync(join(fake.dir, '@bravo', lower ? 'addons/b.pbo' : 'AddOns/B.pbo')), true);
    assert.deepEqual(readdirSync(join(root, 'steam', 'steamapps', 'workshop', 'content', APP, B)).sort(), ['AddOns', 'extra']);
    assert.deepEqual(keys(), ['a3.bikey', 'c.bikey', 'shared.bikey']);
    assert.equal(readFileSync(join(fake.dir, 'keys', 'a3.bikey'), 'utf8'), 'game\n', "the game's key untouched");

    const mods = (await h.api('GET', `/servers/${s.id}/mods`, { token: h.viewerToken })).body.data.mods as any[];
    assert.deepEqual(
      mods.map((m) => [m.name, m.source, m.workshop_id ?? null]),
      [
        ['@alpha_core', 'workshop', A],
        ['@bravo', 'workshop', B],
        ['@charlie', 'workshop', C],
        ['@local_mod', 'local', null],
      ],
    );
    // Items Steam will not give fail with their reason, in the list; the job fails with the first one's code.
    const { coreItem } = FAKE_STEAM_IDS;
    const refused = await calls.install(s.id, { items: [coreItem, '2299999'] }, 'failed');
    assert.equal(refused.error!.code, 'WORKSHOP_WRONG_APP');
    assert.match(refused.error!.message, /2 of 2 Workshop items failed: .*2299999 \(WORKSHOP_ITEM_NOT_FOUND/);
    const failed = await byId(s.id);
    assert.equal(failed[coreItem].status, 'failed');
    assert.equal(failed[coreItem].error.code, 'WORKSHOP_WRONG_APP');
    assert.equal(failed['2299999'].error.code, 'WORKSHOP_ITEM_NOT_FOUND');
    assert.deepEqual(downloadsOf(world, 2), [], 'SteamCMD never asked for them');
    for (const id of [coreItem, '2299999']) assert.equal((await calls.api('DELETE', `/servers/${s.id}/workshop/${id}`)).status, 200);
  });

  it('removes an item with its keys, but not while the running server has it enabled', TIMEOUT, async () => {
    const s = await createGameServer(h, fake, { name: 'Removal' });
    const [first] = (await h.api('GET', '/servers', { token: h.adminToken })).body.data as { id: number }[];
    // The same installation as the first test's server: its items' keys count.
    assert.ok(first.id !== s.id);
    await calls.install(s.id, { items: [C] });
    const enable = await h.api('PUT', `/servers/${s.id}/mods/enabled`, {
      token: h.adminToken,
      body: { mods: [{ name: '@charlie', is_server_mod: false }] },
    });
    assert.equal(enable.status, 200, JSON.stringify(enable.body));
    expectError(await h.api('DELETE', `/servers/${s.id}/workshop/${C}`, { token: h.viewerToken }), 403, 'FORBIDDEN');
    expectError(await h.api('DELETE', `/servers/${s.id}/workshop/2288888`, { token: h.adminToken }), 404, 'WORKSHOP_ITEM_NOT_FOUND');
    await setStatus(h, s.id, 'running');
    expectError(await h.api('DELETE', `/servers/${s.id}/workshop/${C}`, { token: h.adminToken }), 409, 'MOD_IN_USE');
    await setStatus(h, s.id, 'stopped');
    const removed = await h.api('DELETE', `/servers/${s.id}/workshop/${C}`, { token: h.adminToken });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(await byId(s.id), {});
    assert.ok(existsSync(join(fake.dir, '@charlie')), "the first server's item keeps the shared link");
    assert.ok(keys().includes('c.bikey'), 'and its key');
    const audit = (await h.api('GET', '/audit?event_type=workshop_item_removed', { token: h.adminToken })).body.data;
    const entry = (audit.entries ?? audit.events ?? audit).find((e: any) => e.detail?.workshop_id === C);
    assert.ok(entry, JSON.stringify(audit));

    // The first server's items, removed: the shared key goes with the last of its two mods, the game's key never.
    for (const id of [A, B, C])
      assert.equal((await h.api('DELETE', `/servers/${first.id}/workshop/${id}`, { token: h.adminToken })).status, 200);
    assert.deepEqual(keys(), ['a3.bikey']);
    assert.ok(!existsSync(join(fake.dir, '@charlie')));
    await calls.install(first.id, { items: [A, B, C] });
  });

  it('checks every 6 hours and marks exactly the item updated on Steam; the check can be run now', TIMEOUT, async () => {
    const [first] = (await h.api('GET', '/servers', { token: h.adminToken })).body.data as { id: number; name: string }[];
    const res = await h.api('POST', '/webhooks', {
      token: h.adminToken,
      body: { url: receiver.url, kind: 'generic', events: ['workshop.updated'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const updated = world.updateItem(B);
    const seen = api.requests.length;
    await advanceUntil(clock, async () => (await byId(first.id))[B].status === 'outdated', 'the update check', 15 * 60_000);
    const items = await byId(first.id);
    assert.deepEqual(
      [A, B, C].map((id) => items[id].status),
      ['installed', 'outdated', 'installed'],
    );
    assert.equal(items[B].time_updated, new Date(updated * 1000).toISOString());
    assert.ok(
      api.requests.slice(seen).some((r) => r.ids.includes(A) && r.ids.includes(B) && r.ids.includes(C)),
      'one batch',
    );
    // The server's card says it (GET /servers, kept answers included), until the update installs the new version.
    const warnings = async () =>
      ((await h.api('GET', '/servers', { token: h.viewerToken })).body.data as { id: number; warnings: string[] }[]).find(
        (x) => x.id === first.id,
      )!.warnings;
    assert.deepEqual(await warnings(), ['mods_outdated']);
    const [told] = await receiver.waitForCount(1, 'workshop.updated');
    assert.deepEqual(JSON.parse(told.body).data, {
      server_id: first.id,
      server_name: first.name,
      stage: 'outdated',
      items: [{ workshop_id: B, name: 'Bravo' }],
    });

    // The update downloads exactly the outdated item again, and tells its new version installed.
    const runs = world.invocations().length;
    expectError(await h.api('POST', `/servers/${first.id}/workshop/update`, { token: h.viewerToken }), 403, 'FORBIDDEN');
    const update = await calls.api('POST', `/servers/${first.id}/workshop/update`);
    assert.equal(update.status, 202, JSON.stringify(update.body));
    assert.equal((await calls.ended(update.body.data.job_id)).status, 'done');
    assert.deepEqual(downloadsOf(world, runs), [[B]]);
    const fresh = await byId(first.id);
    assert.deepEqual(
      [A, B, C].map((id) => fresh[id].status),
      ['installed', 'installed', 'installed'],
    );
    assert.match(readFileSync(join(root, 'steam', 'steamapps', 'workshop', 'content', APP, B, 'AddOns', 'B.pbo'), 'utf8'), /build 1/);
    assert.deepEqual(await warnings(), []);
    const [, installed] = await receiver.waitForCount(2, 'workshop.updated');
    assert.deepEqual(JSON.parse(installed.body).data.stage, 'installed');
    assert.deepEqual(JSON.parse(installed.body).data.items, [{ workshop_id: B, name: 'Bravo' }]);
    const nothing = await calls.api('POST', `/servers/${first.id}/workshop/update`);
    assert.equal(nothing.status, 200, JSON.stringify(nothing.body));
    assert.deepEqual(nothing.body.data, []);
    assert.equal(world.invocations().length, runs + 1, 'no run when nothing is outdated');

    world.updateItem(C);
    const now = await h.api('POST', `/servers/${first.id}/workshop/check`, { token: h.adminToken });
    assert.equal(now.status, 200, JSON.stringify(now.body));
    assert.equal(now.body.data.checked, 3);
    assert.deepEqual(now.body.data.newly_outdated, [C]);
    const again = await h.api('POST', `/servers/${first.id}/workshop/check`, { token: h.adminToken });
    assert.deepEqual(again.body.data.newly_outdated, [], 'already outdated: not told twice');
    expectError(await h.api('POST', `/servers/${first.id}/workshop/check`, { token: h.viewerToken }), 403, 'FORBIDDEN');
    api.fault({ status: 500 });
    expectError(await h.api('POST', `/servers/${first.id}/workshop/check`, { token: h.adminToken }), 502, 'STEAM_API_UNAVAILABLE');
    const second = await calls.api('POST', `/servers/${first.id}/workshop/update`);
    assert.equal((await calls.ended(second.body.data.job_id)).status, 'done');
    assert.deepEqual(downloadsOf(world, runs + 1), [[C]]);
    assert.equal((await byId(first.id))[C].status, 'installed');
    assert.equal((await receiver.waitForCount(4, 'workshop.updated')).length, 4, 'the check that found C told it, and its install');
  });

  it('records the keys it writes before writing them: a crash in between leaves them removable', TIMEOUT, async () => {
    const s = await createGameServer(h, fake, { name: 'Crash' });
    const D = '2200004';
    world.addItem(D, { app: APP, title: 'Delta', files: { 'Addons/D.pbo': 'd\n', 'Keys/Delta.bikey': 'd\n' } });
    await calls.install(s.id, { items: [D] });
    const stored = () => withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: D }).first());
    assert.deepEqual([(await stored()).keys, (await stored()).pending_keys], ['["delta.bikey"]', '[]']);
    // What the service leaves when it stops after copying the key, before the row lists it.
    const crashed = { keys: '[]', pending_keys: '["delta.bikey"]', status: 'failed' };
    await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: D }).update(crashed));
    assert.deepEqual((await byId(s.id))[D].keys, []);
    // Installed again, the key is the item's; removed, it goes with it.
    await calls.install(s.id, { items: [D] });
    assert.deepEqual([(await stored()).keys, (await stored()).pending_keys], ['["delta.bikey"]', '[]']);
    await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: D }).update(crashed));
    assert.equal((await h.api('DELETE', `/servers/${s.id}/workshop/${D}`, { token: h.adminToken })).status, 200);
    assert.ok(!keys().includes('delta.bikey'), 'the recorded key is removed');
    assert.ok(keys().includes('a3.bikey') && keys().includes('shared.bikey'), "the game's key and the other mods' stay");
  });

  it('refuses to remove an item a job is installing, and an install never re-creates what a removal took', TIMEOUT, async () => {
    const s = await createGameServer(h, fake, { name: 'Race' });
    const E = '2200005';
    world.addItem(E, { app: APP, title: 'Echo', files: { 'Addons/E.pbo': 'e\n', 'Keys/Echo.bikey': 'e\n' } });
    await calls.install(s.id, { items: [E] });
    const row = () => withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: E }));
    for (const status of ['queued', 'downloading']) {
      await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: E }).update({ status }));
      const refused = expectError(await h.api('DELETE', `/servers/${s.id}/workshop/${E}`, { token: h.adminToken }), 409, 'CONFLICT');
      assert.match(refused.message, /a job is installing it/);
      assert.ok(existsSync(join(fake.dir, '@echo')) && keys().includes('echo.bikey'), 'its folder and key stay');
    }
    await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: E }).update({ status: 'installed' }));
    // A removal sent with an install: whichever goes first, once the job ended the row, the folder and the key agree.
    for (let round = 0; round < 4; round++) {
      const [adding, removing] = await Promise.all([
        calls.api('POST', `/servers/${s.id}/workshop`, { items: [E] }),
        h.api('DELETE', `/servers/${s.id}/workshop/${E}`, { token: h.adminToken }),
      ]);
      assert.equal(adding.status, 202, JSON.stringify(adding.body));
      assert.ok([200, 404, 409].includes(removing.status), JSON.stringify(removing.body));
      await calls.ended(adding.body.data.job_id);
      const [there] = await row();
      const installed = there?.status === 'installed';
      assert.equal(existsSync(join(fake.dir, '@echo')), installed, `round ${round}: the folder follows the row (${there?.status})`);
      assert.equal(keys().includes('echo.bikey'), installed, `round ${round}: the key follows the row`);
      if (there && !installed) assert.equal(there.status, 'failed');
      if (there) assert.equal((await h.api('DELETE', `/servers/${s.id}/workshop/${E}`, { token: h.adminToken })).status, 200);
    }
    assert.ok(!existsSync(join(fake.dir, '@echo')) && !keys().includes('echo.bikey'));
  });
});
