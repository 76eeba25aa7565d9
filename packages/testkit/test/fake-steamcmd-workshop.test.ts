import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from '@node-steam/vdf';
import { FAKE_STEAM_ACCOUNTS as ACCOUNTS, FAKE_STEAM_IDS as IDS } from '../src/index.js';
import { loginArgs, steamcmdBenches } from './steamcmd-run.js';

const { owner, poor } = ACCOUNTS;
const ownerLogin = [owner.username, owner.password];
const game = IDS.gameApp;

const bench = steamcmdBenches();

/** Every file under `dir`, relative, `/` separated, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

const downloads = (items: string[]) => items.flatMap((id) => ['+workshop_download_item', game, id, 'validate']);

describe('the fake steamcmd, Workshop downloads', () => {
  it('downloads several items under one login: mixed-case folders, meta.cpp, mod.cpp, keys in odd places, the acf', async () => {
    const b = await bench();
    const dir = join(b.dir, 'steam');
    const items = [IDS.coreItem, IDS.vehiclesItem, IDS.mapItem];
    const { code, lines } = await b.run([...loginArgs(dir, ownerLogin), ...downloads(items), '+quit']);
    assert.equal(code, 0, lines.join('\n'));
    const world = b.world.read();
    for (const id of items) {
      const folder = join(dir, 'steamapps', 'workshop', 'content', game, id);
      const bytes = Object.values(world.items[id].files).reduce((n, c) => n + Buffer.byteLength(c), 0);
      assert.ok(lines.includes(`Downloading item ${id} ...`));
      assert.ok(lines.includes(`Success. Downloaded item ${id} to "${folder}" (${bytes} bytes)`), lines.join('\n'));
      assert.equal(bytes, world.items[id].file_size);
    }
    const core = join(dir, 'steamapps', 'workshop', 'content', game, IDS.coreItem);
    assert.deepEqual(await tree(core), [
      'Addons/Core_Main.pbo',
      'Addons/core_functions.pbo',
      'Keys/CoreLib_v3.bikey',
      'meta.cpp',
      'mod.cpp',
    ]);
    assert.match(
      await readFile(join(core, 'meta.cpp'), 'utf8'),
      /^protocol = 1;\npublishedid = 2000001;\nname = "Core Library \(Workshop\)";\ntimestamp = \d+;\n$/,
    );
    assert.match(await readFile(join(core, 'mod.cpp'), 'utf8'), /^name = "Core Library";$/m);
    const vehicles = await tree(join(dir, 'steamapps', 'workshop', 'content', game, IDS.vehiclesItem));
    assert.ok(vehicles.includes('keys/tv_2024.bikey') && vehicles.includes('optional/server/TV_ServerOnly.bikey'));
    assert.deepEqual(await tree(join(dir, 'steamapps', 'workshop', 'content', game, IDS.mapItem)), ['Addons/Islands.pbo', 'MapPack.bikey']);

    const acf = parse(await readFile(join(dir, 'steamapps', 'workshop', `appworkshop_${game}.acf`), 'utf8')) as Record<string, any>;
    assert.equal(String(acf.AppWorkshop.appid), game);
    for (const id of items) {
      assert.equal(acf.AppWorkshop.WorkshopItemsInstalled[id].timeupdated, world.items[id].time_updated);
      assert.equal(acf.AppWorkshop.WorkshopItemsInstalled[id].size, world.items[id].file_size);
    }
    assert.equal(b.world.invocations().length, 1, 'one login, one run');
  });

  it('downloads an item updated upstream anew, replacing the older download whole', async () => {
    const b = await bench();
    const dir = join(b.dir, 'steam');
    const get = () => b.run([...loginArgs(dir, ownerLogin), ...downloads([IDS.coreItem]), '+quit']);
    assert.equal((await get()).code, 0);
    const folder = join(dir, 'steamapps', 'workshop', 'content', game, IDS.coreItem);
    await writeFile(join(folder, 'stale.txt'), 'left from before');
    const before = b.world.read().items[IDS.coreItem];
    const updated = b.world.updateItem(IDS.coreItem);
    assert.ok(updated > before.time_updated);
    const after = b.world.read().items[IDS.coreItem];
    assert.notEqual(after.files['Addons/Core_Main.pbo'], before.files['Addons/Core_Main.pbo']);
    assert.equal(await readFile(join(folder, 'Addons', 'Core_Main.pbo'), 'utf8'), 'fake pbo Core_Main build 1\n');
    assert.equal((await get()).code, 0);
    assert.equal(await readFile(join(folder, 'Addons', 'Core_Main.pbo'), 'utf8'), 'fake pbo Core_Main build 2\n');
    assert.match(
      await readFile(join(folder, 'meta.cpp'), 'utf8'),
      new RegExp(`timestamp = ${BigInt(updated) * 10_000_000n + 116_444_736_000_000_000n};`),
    );
    assert.ok(!(await tree(folder)).includes('stale.txt'));
    const acf = parse(await readFile(join(dir, 'steamapps', 'workshop', `appworkshop_${game}.acf`), 'utf8')) as Record<string, any>;
    assert.equal(acf.AppWorkshop.WorkshopItemsInstalled[IDS.coreItem].timeupdated, updated);
  });

  it('times out as often as the fault says, counted across runs, then downloads', async () => {
    const b = await bench();
    const dir = join(b.dir, 'steam');
    b.world.setFault({ kind: 'item_timeouts', item: IDS.vehiclesItem, count: 2 });
    const get = () => b.run([...loginArgs(dir, ownerLogin), ...downloads([IDS.vehiclesItem]), '+quit']);
    for (let i = 0; i < 2; i += 1) {
      const { code, lines } = await get();
      assert.equal(code, 10);
      assert.equal(lines.at(-1), `ERROR! Download item ${IDS.vehiclesItem} failed (Timeout).`);
    }
    assert.equal(b.world.read().items[IDS.vehiclesItem].faults?.timeouts, 0);
    const third = await get();
    assert.equal(third.code, 0);
    assert.match(third.lines.at(-1)!, /^Success\. Downloaded item 2000002 to /);
  });

  it('fails what Steam refuses: a failing item, an unknown one, another game, no ownership, anonymous, private, no login', async () => {
    const b = await bench();
    const dir = join(b.dir, 'steam');
    b.world.setFault({ kind: 'item_fail', item: IDS.mapItem });
    b.world.addItem('2000099', { title: 'Private Thing', visibility: 2 });
    const failure = (id: string, reason: string) => `ERROR! Download item ${id} failed (${reason}).`;
    const cases: [string[] | null, string, string, string][] = [
      [ownerLogin, game, IDS.mapItem, 'Failure'],
      [ownerLogin, game, '2999999', 'File Not Found'],
      [ownerLogin, game, IDS.otherGameItem, 'Failure'],
      [[poor.username, poor.password], game, IDS.coreItem, 'Failure'],
      [['anonymous'], game, IDS.coreItem, 'Failure'],
      [ownerLogin, game, '2000099', 'Access Denied'],
      [null, game, IDS.coreItem, 'Not Logged On'],
    ];
    for (const [login, app, id, reason] of cases) {
      const args = login ? loginArgs(dir, login) : ['+@ShutdownOnFailedCommand', '1', '+force_install_dir', dir];
      const { code, lines } = await b.run([...args, '+workshop_download_item', app, id, '+quit']);
      assert.equal(code, 10, `${login?.[0]} ${id}`);
      assert.equal(lines.at(-1), failure(id, reason));
    }
    b.world.setFault({ kind: 'item_fail', item: IDS.mapItem, fail: false });
    assert.equal((await b.run([...loginArgs(dir, ownerLogin), ...downloads([IDS.mapItem]), '+quit'])).code, 0);
  });

  it('goes on after a failed item without @ShutdownOnFailedCommand, and stops there with it', async () => {
    const b = await bench();
    const dir = join(b.dir, 'steam');
    b.world.setFault({ kind: 'item_fail', item: IDS.coreItem });
    const login = ['+force_install_dir', dir, '+login', ...ownerLogin];
    const going = await b.run([...login, ...downloads([IDS.coreItem, IDS.mapItem]), '+quit']);
    assert.equal(going.code, 10, 'quit exits with the last failure');
    assert.ok(going.lines.includes(`ERROR! Download item ${IDS.coreItem} failed (Failure).`));
    assert.match(going.lines.at(-1)!, /^Success\. Downloaded item 2000003 to /);
    const stopping = await b.run(['+@ShutdownOnFailedCommand', '1', ...login, ...downloads([IDS.coreItem, IDS.vehiclesItem]), '+quit']);
    assert.equal(stopping.code, 10);
    assert.equal(stopping.lines.at(-1), `ERROR! Download item ${IDS.coreItem} failed (Failure).`);
    assert.ok(!stopping.lines.includes(`Downloading item ${IDS.vehiclesItem} ...`));
  });
});
