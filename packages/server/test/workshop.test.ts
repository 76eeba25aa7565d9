import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FAKE_STEAM_IDS, FakeSteamWorld, installFakeGameaTemp, startFakeSteamWebApi, type FakeSteamWebApi } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { gamea } from '@garrison/adapter-gamea';
import { expectError, setStatus, startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, type FakeInstall } from './games.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { workshopTestFeature } from './workshop-feature.js';

/*
 * The Workshop items of a server over HTTP: the real service with the fake Steam Web API, items laid out
 * in GARRISON_STEAM_DIR as SteamCMD leaves them, installed by a test feature standing for the download
 * job, listed, removed, and checked for updates on a fake clock.
 */

const APP = String(gamea.steam?.workshop_app_id);
const [A, B, C] = ['2200001', '2200002', '2200003'];
const COLLECTION = '3200001';
const TIMEOUT = { timeout: 60_000 };

describe('Workshop items', () => {
  let world: FakeSteamWorld;
  let api: FakeSteamWebApi;
  let fake: FakeInstall;
  let h: Harness;
  let receiver: Receiver;
  let steamDir: string;
  const clock = new FakeClock(new Date('2030-01-01T00:00:00Z'));

  before(async () => {
    world = FakeSteamWorld.create();
    world.addItem(A, { app: APP, title: 'Alpha Core', modName: 'Alpha', files: { 'Addons/Alpha.pbo': 'a\n', 'Keys/Shared.bikey': 's\n' } });
    world.addItem(B, { app: APP, title: 'Bravo', meta: false, files: { 'AddOns/B.pbo': 'b\n', 'extra/Shared.bikey': 's\n' } });
    world.addItem(C, { app: APP, title: 'Charlie', files: { 'c.pbo': 'c\n', 'c.bikey': 'c\n' } });
    world.setCollection(COLLECTION, [B, C]);
    api = await startFakeSteamWebApi({ world });
    fake = await installFakeGameaTemp();
    mkdirSync(join(fake.dir, '@local_mod'));
    mkdirSync(join(fake.dir, 'keys'), { recursive: true });
    writeFileSync(join(fake.dir, 'keys', 'a3.bikey'), 'game\n');
    steamDir = mkdtempSync(join(tmpdir(), 'garrison-steam-dir-'));
    receiver = await startReceiver();
    h = await startHarness({ clock, steamApiUrl: api.url, steamDir, webhookAllowPrivate: true, modules: [workshopTestFeature] });
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
    await api?.close();
    await fake?.remove();
    world?.remove();
    rmSync(steamDir, { recursive: true, force: true });
  });

  /** The item's files where SteamCMD puts them: what a download leaves. */
  const lay = (id: string) => {
    const dir = join(steamDir, 'steamapps', 'workshop', 'content', APP, id);
    rmSync(dir, { recursive: true, force: true });
    for (const [path, text] of Object.entries(world.read().items[id].files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  };
  const install = (serverId: number, body: Record<string, unknown>) =>
    h.api('POST', `/test-workshop/${serverId}`, { token: h.adminToken, body }).then((r) => (assert.equal(r.status, 200), r.body.data));
  const list = (serverId: number, token = h.viewerToken) => h.api('GET', `/servers/${serverId}/workshop`, { token });
  const byId = async (serverId: number) =>
    Object.fromEntries(((await list(serverId)).body.data as { workshop_id: string }[]).map((i) => [i.workshop_id, i])) as Record<
      string,
      any
    >;
  const keys = () => readdirSync(join(fake.dir, 'keys')).sort();

  it('installs items and a collection, lists them, and shows them among the mods as from the Workshop', TIMEOUT, async () => {
    const s = await createGameServer(h, fake);
    for (const id of [A, B, C]) lay(id);
    assert.deepEqual(await install(s.id, { items: [A, `https://steamcommunity.com/sharedfiles/filedetails/?id=${B}`] }), {
      installed: [A, B],
      failed: [],
    });
    assert.deepEqual(await install(s.id, { collection: COLLECTION }), { installed: [B, C], failed: [] });
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
    assert.deepEqual(readdirSync(join(steamDir, 'steamapps', 'workshop', 'content', APP, B)).sort(), ['AddOns', 'extra']);
    assert.deepEqual(keys(), ['a3.bikey', 'c.bikey', 'shared.bikey']);

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
    // Items Steam will not give fail with their reason, in the list.
    const { coreItem } = FAKE_STEAM_IDS;
    assert.deepEqual(await install(s.id, { items: [coreItem, '2299999'] }), { installed: [], failed: [coreItem, '2299999'] });
    const failed = await byId(s.id);
    assert.equal(failed[coreItem].status, 'failed');
    assert.equal(failed[coreItem].error.code, 'WORKSHOP_WRONG_APP');
    assert.equal(failed['2299999'].error.code, 'WORKSHOP_ITEM_NOT_FOUND');
    expectError(
      await h.api('POST', `/test-workshop/${s.id}`, { token: h.adminToken, body: { items: ['+quit'] } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('removes an item with its keys, but not while the running server has it enabled', TIMEOUT, async () => {
    const s = await createGameServer(h, fake, { name: 'Removal' });
    const [first] = (await h.api('GET', '/servers', { token: h.adminToken })).body.data as { id: number }[];
    // The same installation as the first test's server: its items' keys count.
    assert.ok(first.id !== s.id);
    lay(C);
    await install(s.id, { items: [C] });
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
    for (const id of [A, B, C]) lay(id);
    await install(first.id, { items: [A, B, C] });
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
    const [told] = await receiver.waitForCount(1, 'workshop.updated');
    assert.deepEqual(JSON.parse(told.body).data, {
      server_id: first.id,
      server_name: first.name,
      items: [{ workshop_id: B, name: 'Bravo' }],
    });

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
    // Installed again (a new download), the item is current.
    lay(B);
    await install(first.id, { items: [B] });
    assert.equal((await byId(first.id))[B].status, 'installed');
    assert.equal(receiver.received.length, 2, 'the check that found C told it');
  });
  it('records the keys it writes before writing them: a crash in between leaves them removable', TIMEOUT, async () => {
    const s = await createGameServer(h, fake, { name: 'Crash' });
    const D = '2200004';
    world.addItem(D, { app: APP, title: 'Delta', files: { 'Addons/D.pbo': 'd\n', 'Keys/Delta.bikey': 'd\n' } });
    lay(D);
    await install(s.id, { items: [D] });
    const stored = () => withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: D }).first());
    assert.deepEqual([(await stored()).keys, (await stored()).pending_keys], ['["delta.bikey"]', '[]']);
    // What the service leaves when it stops after copying the key, before the row lists it.
    const crashed = { keys: '[]', pending_keys: '["delta.bikey"]', status: 'failed' };
    await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: D }).update(crashed));
    assert.deepEqual((await byId(s.id))[D].keys, []);
    // Installed again, the key is the item's; removed, it goes with it.
    lay(D);
    await install(s.id, { items: [D] });
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
    lay(E);
    await install(s.id, { items: [E] });
    const row = () => withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: E }));
    for (const status of ['queued', 'downloading']) {
      await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: E }).update({ status }));
      const refused = expectError(await h.api('DELETE', `/servers/${s.id}/workshop/${E}`, { token: h.adminToken }), 409, 'CONFLICT');
      assert.match(refused.message, /a job is installing it/);
      assert.ok(existsSync(join(fake.dir, '@echo')) && keys().includes('echo.bikey'), 'its folder and key stay');
    }
    await withDatabase(h, (knex) => knex('workshop_items').where({ server_id: s.id, workshop_id: E }).update({ status: 'installed' }));
    // A removal sent while an install runs: whichever goes first, the row, the folder and the key agree.
    for (let round = 0; round < 6; round++) {
      const [installing, removing] = await Promise.all([
        h.api('POST', `/test-workshop/${s.id}`, { token: h.adminToken, body: { items: [E] } }),
        h.api('DELETE', `/servers/${s.id}/workshop/${E}`, { token: h.adminToken }),
      ]);
      assert.equal(installing.status, 200, JSON.stringify(installing.body));
      assert.ok([200, 404, 409].includes(removing.status), JSON.stringify(removing.body));
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
