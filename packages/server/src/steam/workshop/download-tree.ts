import { lstat, mkdir, readdir, readlink, realpath, symlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
 * The installed copy of a download where the game's Linux server loads only lower-case names: a new
 * folder `target` of the download's folders, their names in lower case, each file a link to the
 * download's file. SteamCMD's own folder keeps its names (its next `validate` finds every file where it
 * left it); folders differing only in case become one, and two files that would be one are refused.
 */
export async function linkLowerCaseTree(download: string, target: string, workshopId: string): Promise<void> {
  await mkdir(target);
  let files = 0;
  for (const entry of await walk(download)) {
    const rel = relative(download, entry.path);
    const to = join(target, rel.toLowerCase());
    const clash = await lstatOrNull(to);
    // `Keys/` beside `keys/`: one folder of what both hold.
    if (entry.kind === 'dir' && clash?.isDirectory() && !clash.isSymbolicLink()) continue;
    if (clash) throw unsafe(workshopId, `it holds ${JSON.stringify(rel)} and another name that is the same in lower case`);
    if (entry.kind === 'dir') await mkdir(to);
    else if (entry.kind === 'file') {
      await symlink(entry.path, to, 'file');
      files++;
    } else throw unsafe(workshopId, `${rel} is neither a file nor a folder`);
  }
  if (!files) throw unsafe(workshopId, 'its download holds no file');
}

/**
 * Whether `path` is what installing an item made (never followed): a link to its download, or a folder
 * holding only folders and links into the download (linkLowerCaseTree's), at least one. `ofItem` says
 * whether a link's target is the download or in it.
 */
export async function madeFromDownload(path: string, ofItem: (target: string) => boolean): Promise<boolean> {
  const stat = await lstatOrNull(path);
  if (stat?.isSymbolicLink()) return ofItem(resolve(dirname(path), await readlink(path)));
  if (!stat?.isDirectory()) return false;
  let links = 0;
  for (const entry of await walk(path)) {
    if (entry.kind === 'dir') continue;
    if (entry.kind !== 'link' || !ofItem(resolve(dirname(entry.path), await readlink(entry.path)))) return false;
    links++;
  }
  return links > 0;
}

/** Whether `target` is `download` or inside it, by text (for telling our own links, never for following one). */
export const inDownload = (download: string, target: string) => target === download || target.startsWith(download + sep);
