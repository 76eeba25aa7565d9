import { lstat, readdir, realpath, rename, rmdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ApiError, ifMissing } from '@garrison/core';

/**
 * A Workshop download as SteamCMD leaves it (`<GARRISON_STEAM_DIR>/steamapps/workshop/content/<app>/<id>/`),
 * walked without following a link: nothing outside the Steam folder is ever read through it.
 */

export const unsafe = (id: string, why: string) => new ApiError('WORKSHOP_UNSAFE_ITEM', `Workshop item ${id} is not installed: ${why}`);

/** The entry itself (a link as a link), or null when there is none. */
export const lstatOrNull = (path: string) => lstat(path).catch(ifMissing(null));

/** Whether `path` is `root` or inside it. */
const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
};

/** Where SteamCMD puts an item of an app. */
export function downloadFolder(steamDir: string, appId: number, workshopId: string): string {
  return join(steamDir, 'steamapps', 'workshop', 'content', String(appId), workshopId);
}

/**
 * The download, checked: a real folder (not a link) inside the Steam folder, holding only folders and
 * regular files. A link inside it is refused whatever it points at: SteamCMD makes none, and a link's
 * text says nothing of where it leads (`a -> .` then `b -> a/..` reads as inside and is the parent), so
 * no link of an item's is ever followed, copied or linked to. Answers its real path.
 */
export async function checkedDownload(steamDir: string, appId: number, workshopId: string): Promise<string> {
  const folder = downloadFolder(steamDir, appId, workshopId);
  const stat = await lstatOrNull(folder);
  if (!stat?.isDirectory()) throw unsafe(workshopId, `its download is missing (${folder}): download it again`);
  const real = await realpath(folder);
  if (!isInside(await realpath(steamDir), real)) throw unsafe(workshopId, 'its download folder leads out of GARRISON_STEAM_DIR');
  for (const entry of await walk(real)) {
    if (entry.kind === 'link') throw unsafe(workshopId, `${relative(real, entry.path)} is a link (a download holds none)`);
    if (entry.kind === 'other') throw unsafe(workshopId, `${relative(real, entry.path)} is neither a file nor a folder`);
  }
  return real;
}

export interface TreeEntry {
  path: string;
  kind: 'file' | 'dir' | 'link' | 'other';
}

/** Every entry under `root`, parents before their children; links are listed, never followed. */
export async function walk(root: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const visit = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
      out.push({ path, kind });
      if (kind === 'dir') await visit(path);
    }
  };
  await visit(root);
  return out;
}

/**
 * Every folder and file name under `root` in lower case, as the game's Linux server loads only those:
 * each entry renamed in place (one atomic rename each), parents first; folders differing only in case
 * are merged. Idempotent: a second run, or one after SteamCMD wrote a new version, renames what is new.
 */
export async function lowerCaseTree(root: string, workshopId: string): Promise<void> {
  const visit = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const lower = entry.name.toLowerCase();
      let path = join(dir, entry.name);
      if (lower !== entry.name) path = await renameLower(dir, entry.name, lower, workshopId);
      if (entry.isDirectory() && !entry.isSymbolicLink()) await visit(path);
    }
  };
  await visit(root);
}

async function renameLower(dir: string, name: string, lower: string, workshopId: string): Promise<string> {
  const from = join(dir, name);
  const to = join(dir, lower);
  const existing = await lstatOrNull(to);
  // On a folder that ignores case `to` is `from` itself: the rename only changes its case.
  const same = existing !== null && (await lstat(from)).ino === existing.ino;
  if (!existing || same) {
    await rename(from, to);
    return to;
  }
  const fromStat = await lstat(from);
  if (!existing.isDirectory() || !fromStat.isDirectory() || existing.isSymbolicLink() || fromStat.isSymbolicLink()) {
    throw unsafe(workshopId, `it holds both ${JSON.stringify(name)} and ${JSON.stringify(lower)}, which are one name in lower case`);
  }
  // `Keys/` beside `keys/`: what the first holds moves into the second, lower-cased as it goes.
  for (const child of await readdir(from)) {
    const target = child.toLowerCase();
    if (target !== child) await renameLower(from, child, target, workshopId);
    const moved = join(from, target);
    const into = join(to, target);
    const clash = await lstatOrNull(into);
    if (clash) throw unsafe(workshopId, `${JSON.stringify(join(name, child))} clashes with ${JSON.stringify(join(lower, target))}`);
    await rename(moved, into);
  }
  await rmdir(from);
  return to;
}
