import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { readdir } from 'node:fs/promises';
import { FAKE_STEAM_IDS, FakeSteamWorld } from '@garrison/testkit';
import { ApiError, type SteamDeclaration } from '@garrison/core';
import { describeMod } from '@garrison/adapter-gamea';
import {
  installItem,
  removeInstalledItem,
  type InstallPlace,
  type InstalledItem,
  type OtherItems,
} from '../src/steam/workshop/install-item.js';

/*
 * Installing downloads into an installation, on real files: each item's files laid out from the fake
 * world as SteamCMD leaves them (`<steam dir>/steamapps/workshop/content/<app>/<id>/`, mixed case).
 */

const { gameApp, coreItem, vehiclesItem, mapItem, soundItem } = FAKE_STEAM_IDS;
const STEAM: SteamDeclaration = {
  server_app_id: 1000010,
  workshop_app_id: Number(gameApp),
  anonymous_server: false,
  branches: [{ name: 'public', password_required: false, description: '' }],
  mod_folder_prefix: '@',
  key_file_extension: '.bikey',
  keys_folder: 'keys',
  protected_keys: ['a3.bikey'],
  lower_case_on_linux: true,
};

describe('installing a Workshop download into an installation', () => {
  let root: string;
  let world: FakeSteamWorld;
  let place: InstallPlace;
  /** What is installed, by id: the others of each next install. */
  const installed = new Map<string, InstalledItem>();

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'garrison-workshop-install-'));
    world = FakeSteamWorld.create({ dir: join(root, 'world') });
    // The first game's adapter says what a download is called (meta.cpp, mod.cpp), as the service asks it.
    place = { steamDir: join(root, 'steam'), installation: join(root, 'server'), steam: STEAM, lowerCase: true, describe: describeMod };
    mkdirSync(join(place.installation, 'keys'), { recursive: true });
    writeFileSync(join(place.installation, 'keys', 'a3.bikey'), 'the game key\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const download = (id: string) => join(place.steamDir, 'steamapps', 'workshop', 'content', gameApp, id);
  /** The item's files as SteamCMD writes them (an older download replaced whole). */
  const lay = (id: string) => {
    rmSync(download(id), { recursive: true, force: true });
    for (const [path, text] of Object.entries(world.read().items[id].files)) {
      mkdirSync(dirname(join(download(id), path)), { recursive: true });
      writeFileSync(join(download(id), path), text);
    }
  };
  const others = (except: string): OtherItems => {
    const rest = [...installed].filter(([id]) => id !== except);
    return { folders: new Map(rest.map(([id, i]) => [i.folder, id])), keys: new Set(rest.flatMap(([, i]) => i.keys)) };
  };
  const install = async (id: string, title = world.read().items[id].title) => {
    const before = installed.get(id);
    const done = await installItem(place, { workshopId: id, title, folder: before?.folder ?? null, keys: before?.keys ?? [] }, others(id));
    installed.set(id, done);
    return done;
  };
  const remove = async (id: string) => {
    const item = installed.get(id)!;
    installed.delete(id);
    await removeInstalledItem(place, { workshopId: id, ...item }, others(id));
  };
  const tree = async (dir: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();
  /** The links of an installed lower-case tree, by path in it, each with the file it leads to. */
  const links = async (dir: string) =>
    Object.fromEntries(
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isSymbolicLink())
        .map((e) => [relative(dir, join(e.parentPath, e.name)), readlinkSync(join(e.parentPath, e.name))])
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  const keys = () => readdir(join(place.installation, 'keys')).then((k) => k.sort());
  const rejectsWith = (code: string) => (err: unknown) => err instanceof ApiError && err.code === code;

  it('makes the mod folder named by meta.cpp in lower case, its files links to the download left as it is (idempotent)', async () => {
    lay(coreItem);
    const done = await install(coreItem);
    assert.deepEqual(done, { folder: '@core_library_workshop', keys: ['corelib_v3.bikey'] });
    const steamNames = ['Addons/Core_Main.pbo', 'Addons/core_functions.pbo', 'Keys/CoreLib_v3.bikey', 'meta.cpp', 'mod.cpp'];
    // SteamCMD's folder keeps its names: its next `validate` finds every file where it left it.
    assert.deepEqual(await tree(download(coreItem)), steamNames.slice().sort());
    const mod = join(place.installation, '@core_library_workshop');
    assert.ok(lstatSync(mod).isDirectory() && !lstatSync(mod).isSymbolicLink());
    const expected = Object.fromEntries(steamNames.map((n) => [n.toLowerCase(), join(download(coreItem), n)]));
    assert.deepEqual(await links(mod), expected);
    assert.equal(readFileSync(join(mod, 'addons', 'core_main.pbo'), 'utf8'), world.read().items[coreItem].files['Addons/Core_Main.pbo']);
    assert.deepEqual(await keys(), ['a3.bikey', 'corelib_v3.bikey']);
    // Again (SteamCMD wrote a new version, a file fewer): the same folder, following the download.
    lay(coreItem);
    rmSync(join(download(coreItem), 'Addons', 'core_functions.pbo'));
    assert.deepEqual(await install(coreItem), done);
    delete expected['addons/core_functions.pbo'];
    assert.deepEqual(await links(mod), expected);
    assert.deepEqual(await tree(download(coreItem)), ['Addons/Core_Main.pbo', 'Keys/CoreLib_v3.bikey', 'meta.cpp', 'mod.cpp']);
    assert.deepEqual(
      (await readdir(place.installation)).filter((f) => f.endsWith('.tmp') || f.endsWith('.old')),
      [],
      'no temporary left',
    );
    // Two files that are one name in lower case: refused, the installed folder as it was.
    writeFileSync(join(download(coreItem), 'Addons', 'CORE_MAIN.pbo'), 'another\n');
    await assert.rejects(install(coreItem), rejectsWith('WORKSHOP_UNSAFE_ITEM'));
    assert.deepEqual(await links(mod), expected);
    lay(coreItem);
    await install(coreItem);
  });

  it('takes keys from anywhere in the mod; mod.cpp names a mod without meta.cpp, the title one without either', async () => {
    lay(vehiclesItem);
    assert.deepEqual(await install(vehiclesItem), { folder: '@tactical_vehicles', keys: ['tv_2024.bikey', 'tv_serveronly.bikey'] });
    lay(mapItem);
    assert.deepEqual(await install(mapItem), { folder: '@map_pack_islands_co', keys: ['mappack.bikey'] });
    world.addItem('2100001', { title: 'Title Only', meta: false, modName: 'From Mod Cpp', files: { 'Addons/X.pbo': 'x\n' } });
    lay('2100001');
    assert.deepEqual(await install('2100001'), { folder: '@from_mod_cpp', keys: [] });
    assert.deepEqual(await keys(), ['a3.bikey', 'corelib_v3.bikey', 'mappack.bikey', 'tv_2024.bikey', 'tv_serveronly.bikey']);
  });

  it('keeps a key two mods bring until the last of them goes, and never the protected key', async () => {
    lay(soundItem);
    // A folder copied in by hand holds the plain name: the item's gets its id.
    mkdirSync(join(place.installation, '@sound_overhaul'));
    assert.deepEqual(await install(soundItem), { folder: '@sound_overhaul_2000004', keys: ['corelib_v3.bikey'] });
    await remove(coreItem);
    assert.ok(!existsSync(join(place.installation, '@core_library_workshop')), 'its link is gone');
    assert.ok(existsSync(download(coreItem)), 'its download stays');
    assert.ok((await keys()).includes('corelib_v3.bikey'), 'the sound mod still lists it');
    await remove(soundItem);
    assert.ok(!(await keys()).includes('corelib_v3.bikey'));
    assert.ok(existsSync(join(place.installation, '@sound_overhaul')), 'the folder not ours stays');
    for (const id of [vehiclesItem, mapItem, '2100001']) await remove(id);
    assert.deepEqual(await keys(), ['a3.bikey']);
    assert.equal(readFileSync(join(place.installation, 'keys', 'a3.bikey'), 'utf8'), 'the game key\n');
  });

  it("refuses a key that would replace the game's or another mod's, leaving the keys folder as it was", async () => {
    lay(vehiclesItem);
    await install(vehiclesItem);
    world.addItem('2100002', { title: 'Game Key Copy', files: { 'keys/a3.bikey': 'the game key\n' } });
    lay('2100002');
    assert.deepEqual(await install('2100002'), { folder: '@game_key_copy', keys: [] }, 'the same bytes: not listed, so never removed');
    await remove('2100002');
    world.addItem('2100003', { title: 'Bad Keys', files: { 'Keys/A3.bikey': 'another\n', 'new.bikey': 'n\n' } });
    lay('2100003');
    await assert.rejects(install('2100003'), rejectsWith('WORKSHOP_KEY_CONFLICT'));
    world.addItem('2100004', { title: 'Clash', files: { 'a/tv_2024.bikey': 'not the vehicles key\n', 'b/fresh.bikey': 'f\n' } });
    lay('2100004');
    await assert.rejects(install('2100004'), (err) => rejectsWith('WORKSHOP_KEY_CONFLICT')(err) && /another mod/.test(String(err)));
    assert.deepEqual(await keys(), ['a3.bikey', 'tv_2024.bikey', 'tv_serveronly.bikey']);
    assert.equal(readFileSync(join(place.installation, 'keys', 'a3.bikey'), 'utf8'), 'the game key\n');
    await remove(vehiclesItem);
  });

  it('makes unsafe names safe and short, and refuses a download with a link out of it or none at all', async () => {
    world.addItem('2100005', { title: '../../etc/passwd', meta: false, files: { 'x.txt': 'x\n' } });
    lay('2100005');
    assert.equal((await install('2100005')).folder, '@etc_passwd');
    world.addItem('2100006', { title: '...', meta: false, files: { 'x.txt': 'x\n' } });
    lay('2100006');
    assert.equal((await install('2100006')).folder, '@2100006');
    world.addItem('2100007', { title: `Ünïcode ${'Long '.repeat(30)}`, meta: false, files: { 'x.txt': 'x\n' } });
    lay('2100007');
    const long = (await install('2100007')).folder;
    assert.match(long, /^@unicode_long_long[a-z_]*$/);
    assert.ok(long.length <= 64, long);
    for (const folder of (await readdir(place.installation)).filter((f) => f.startsWith('@')))
      assert.match(folder, /^@[a-z0-9_.-]+$/, 'no name with a separator, a space or a capital');

    world.addItem('2100008', { title: 'Escape', files: { 'x.txt': 'x\n' } });
    lay('2100008');
    symlinkSync('/etc', join(download('2100008'), 'outside'));
    await assert.rejects(install('2100008'), rejectsWith('WORKSHOP_UNSAFE_ITEM'));
    assert.ok(!existsSync(join(place.installation, '@escape')));
    await assert.rejects(install('2199999', 'Never Downloaded'), rejectsWith('WORKSHOP_UNSAFE_ITEM'));
  });

  it('refuses an item holding any link, even one whose text reads as inside it (nothing outside is copied or linked)', async () => {
    const secret = join(root, 'outside', 'secret.bikey');
    mkdirSync(dirname(secret), { recursive: true });
    writeFileSync(secret, 'not a key of the mod\n');
    // `here -> .`, then each `upN -> up(N-1)/..`: every link's text resolves inside the download, yet up6 is `root`.
    const climbing = (dir: string) => {
      symlinkSync('.', join(dir, 'here'));
      for (let n = 1; n <= 6; n++) symlinkSync(`${n === 1 ? 'here' : `up${n - 1}`}/..`, join(dir, `up${n}`));
    };
    world.addItem('2100010', { title: 'Stolen Key', files: { 'Addons/S.pbo': 's\n' } });
    lay('2100010');
    climbing(download('2100010'));
    mkdirSync(join(download('2100010'), 'Keys'));
    symlinkSync('../up6/outside/secret.bikey', join(download('2100010'), 'Keys', 'stolen.bikey'));
    world.addItem('2100011', { title: 'Linked Dir', files: { 'mod.cpp': 'name = "Linked Dir";\n' } });
    lay('2100011');
    climbing(download('2100011'));
    symlinkSync('up6/outside', join(download('2100011'), 'Addons'));
    world.addItem('2100012', { title: 'Plain Link', files: { 'x.txt': 'x\n' } });
    lay('2100012');
    symlinkSync(secret, join(download('2100012'), 'evil.bikey'));
    for (const id of ['2100010', '2100011', '2100012'])
      await assert.rejects(install(id), (err) => rejectsWith('WORKSHOP_UNSAFE_ITEM')(err) && /is a link/.test(String(err)), id);
    assert.ok(!(await keys()).some((k) => k.includes('stolen') || k.includes('evil')), 'no key copied from outside');
    for (const folder of ['@stolen_key', '@linked_dir', '@plain_link']) assert.ok(!existsSync(join(place.installation, folder)), folder);
    assert.equal(readFileSync(secret, 'utf8'), 'not a key of the mod\n');
    assert.ok(existsSync(join(root, 'outside', 'secret.bikey')), 'nothing outside renamed');
  });

  it('hands the keys it is about to write to the caller before writing any: recorded so, they are removed after a crash', async () => {
    world.addItem('2100013', {
      title: 'Recorded Keys',
      files: { 'Keys/R1.bikey': 'r1\n', 'r2.bikey': 'r2\n', 'keys/a3.bikey': 'the game key\n' },
    });
    lay('2100013');
    const recorded: string[][] = [];
    const seen: string[][] = [];
    const item = { workshopId: '2100013', title: 'Recorded Keys', folder: null, keys: [] };
    const done = await installItem(place, item, others('2100013'), async (names) => {
      recorded.push(names);
      seen.push(await keys());
    });
    assert.deepEqual(done.keys, ['r1.bikey', 'r2.bikey']);
    assert.deepEqual(recorded, [['r1.bikey', 'r2.bikey']], "once, without the game's key it does not write");
    assert.ok(!seen[0].includes('r1.bikey') && !seen[0].includes('r2.bikey'), 'recorded before the first is written');
    // The service stopped before the row listed `done.keys`: what was recorded takes them out.
    await removeInstalledItem(place, { workshopId: '2100013', folder: done.folder, keys: recorded.flat() }, others('2100013'));
    assert.ok(!(await keys()).some((k) => k.startsWith('r')));
    assert.equal(readFileSync(join(place.installation, 'keys', 'a3.bikey'), 'utf8'), 'the game key\n');
    // A failing record (the row is gone) stops the install before any key is written.
    const refused = installItem(place, item, others('2100013'), async () => {
      throw new ApiError('WORKSHOP_ITEM_NOT_FOUND', 'removed meanwhile');
    });
    await assert.rejects(refused, rejectsWith('WORKSHOP_ITEM_NOT_FOUND'));
    assert.ok(!(await keys()).some((k) => k.startsWith('r')));
    assert.ok(!existsSync(join(place.installation, done.folder)), 'nor its folder');
  });

  it('keeps the names as they are where the game does not need lower case', async () => {
    world.addItem('2100009', { title: 'Mixed Case', meta: false, files: { 'Keys/Mixed.bikey': 'm\n', 'AddOns/M.txt': 'm\n' } });
    lay('2100009');
    const mixed = { ...place, lowerCase: false };
    const done = await installItem(mixed, { workshopId: '2100009', title: 'Mixed Case', folder: null, keys: [] }, others('2100009'));
    assert.deepEqual(done, { folder: '@Mixed_Case', keys: ['Mixed.bikey'] });
    assert.deepEqual(await tree(download('2100009')), ['AddOns/M.txt', 'Keys/Mixed.bikey']);
    await removeInstalledItem(mixed, { workshopId: '2100009', ...done }, others('2100009'));
    assert.ok(!(await keys()).includes('Mixed.bikey'));
  });
});
