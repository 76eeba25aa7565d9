import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXIT, type Outcome, type SteamConsole } from './context.js';
import { entitled } from './login.js';
import { recordWorkshopItem } from './manifests.js';
import { byteSize, updateState } from './state.js';

/**
 * `+workshop_download_item <app> <id> [validate]`: the item's files into
 * `<root>/steamapps/workshop/content/<app>/<id>` (an older download there is replaced whole) and its entry in
 * `<root>/steamapps/workshop/appworkshop_<app>.acf`.
 */
export async function workshopDownload(steam: SteamConsole, args: string[]): Promise<Outcome> {
  const [app, id, ...rest] = args;
  if (!app || !id || !/^\d+$/.test(app) || !/^\d+$/.test(id) || rest.some((w) => w.toLowerCase() !== 'validate')) {
    steam.out('Usage: workshop_download_item <appid> <PublishedFileId> [validate]');
    return EXIT.error;
  }
  steam.out(`Downloading item ${id} ...`);
  const failed = (reason: string): Outcome => {
    steam.out(`ERROR! Download item ${id} failed (${reason}).`);
    return EXIT.workshop;
  };
  if (!steam.login) return failed('Not Logged On');
  const world = steam.world();
  const item = Object.hasOwn(world.items, id) ? world.items[id] : undefined;
  const game = Object.hasOwn(world.apps, app) ? world.apps[app] : undefined;
  if (!item || !game) return failed('File Not Found');
  if ((item.visibility ?? 0) !== 0) return failed('Access Denied');
  // The real steamcmd prints a bare Failure both for an item of another game and for a login that does not
  // own the game (its workshop_log.txt says "Access Denied"); so does the fake.
  if (item.app !== app || !entitled(steam, app, game.anonymous)) return failed('Failure');
  if (item.faults?.fail) return failed('Failure');
  await steam.pause(world);
  if ((item.faults?.timeouts ?? 0) > 0) {
    updateState(steam.statePath, (s) => {
      const faults = s.items[id]?.faults;
      if (faults?.timeouts) faults.timeouts -= 1;
    });
    await steam.pause(world);
    return failed('Timeout');
  }

  const folder = join(steam.steamapps(), 'workshop', 'content', app, id);
  rmSync(folder, { recursive: true, force: true });
  for (const [path, content] of Object.entries(item.files)) {
    const file = join(folder, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  const bytes = byteSize(item.files);
  await steam.pause(world);
  recordWorkshopItem(join(steam.steamapps(), 'workshop', `appworkshop_${app}.acf`), app, {
    id,
    size: bytes,
    timeupdated: item.time_updated,
  });
  steam.out(`Success. Downloaded item ${id} to "${folder}" (${bytes} bytes)`);
  return EXIT.ok;
}
