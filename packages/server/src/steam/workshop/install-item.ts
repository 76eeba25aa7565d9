import { randomBytes } from 'node:crypto';
import { readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ApiError, type SteamDeclaration } from '@garrison/core';
import { checkedDownload, downloadFolder, lowerCaseTree, lstatOrNull, unsafe } from './download-tree.js';
import { declaredName, safeFolderName, suffixed } from './mod-name.js';
import { keysFolder, keysIn, placeKeys, removeKeys } from './keys.js';

/**
 * Installing a downloaded Workshop item into a server's installation, on the filesystem alone: the mod
 * folder `<prefix><name>` as a link to the download, its names in lower case where the game's Linux
 * server needs them, its keys copied into the keys folder. Nothing outside GARRISON_STEAM_DIR is read
 * and nothing outside the installation is written (the lower-casing renames inside the download only).
 */

/** Where, and by which of the game's rules, an item is installed. */
export interface InstallPlace {
  steamDir: string;
  /** The server's installation: the folder of its executable. */
  installation: string;
  steam: SteamDeclaration;
  /** Whether names are lower-cased (the game's Linux server on Linux: `lowerCaseHere`). */
  lowerCase: boolean;
}

/** The item, and what it had when installed before (an update keeps its folder). */
export interface ItemToInstall {
  workshopId: string;
  title: string;
  folder: string | null;
  keys: readonly string[];
}

/** The other installed items of the installation (those of every server running from it). */
export interface OtherItems {
  /** Their folders, each with its item's id. */
  folders: ReadonlyMap<string, string>;
  /** Every key they list. */
  keys: ReadonlySet<string>;
}

export interface InstalledItem {
  folder: string;
  keys: string[];
}

/** Whether this host lower-cases mod names for the game (its Linux server loads only lower-case names). */
export const lowerCaseHere = (steam: SteamDeclaration) => process.platform === 'linux' && steam.lower_case_on_linux;

function workshopApp(steam: SteamDeclaration): number {
  if (steam.workshop_app_id === null) throw new ApiError('NOT_SUPPORTED', "this game's adapter declares no Steam Workshop");
  return steam.workshop_app_id;
}

/** Where a link at `path` leads (resolved), or null when `path` is not a link. */
async function linkTarget(path: string): Promise<string | null> {
  const stat = await lstatOrNull(path);
  if (!stat?.isSymbolicLink()) return null;
  return resolve(join(path, '..'), await readlink(path));
}

/**
 * The folder the item gets: the one it had while that is still its link; else its declared name (meta.cpp,
 * mod.cpp) or its title, made safe; `_<id>` added when that name is another's (a folder not ours, or
 * another item's).
 */
async function chooseFolder(place: InstallPlace, item: ItemToInstall, download: string, others: OtherItems): Promise<string> {
  const free = async (folder: string) => {
    const owner = others.folders.get(folder);
    if (owner !== undefined && owner !== item.workshopId) return false;
    const path = join(place.installation, folder);
    return !(await lstatOrNull(path)) || (await linkTarget(path)) === download;
  };
  if (item.folder && (await linkTarget(join(place.installation, item.folder))) === download) return item.folder;
  const name = (await declaredName(download)) ?? item.title;
  const plain = safeFolderName(name, place.steam.mod_folder_prefix, item.workshopId, place.lowerCase);
  if (await free(plain)) return plain;
  const other = suffixed(plain, item.workshopId);
  if (await free(other)) return other;
  throw unsafe(item.workshopId, `both ${plain} and ${other} are taken in the installation by folders not its own`);
}

/**
 * Installs a downloaded item (SteamCMD left it in `<steamDir>/steamapps/workshop/content/<app>/<id>/`):
 * lower-cases it when the place says so, checks and copies its keys, and links its mod folder. Again on
 * an update: the folder stays, the keys follow the new version. Throws WORKSHOP_UNSAFE_ITEM or
 * WORKSHOP_KEY_CONFLICT with what is wrong, leaving the installation's keys as they were.
 */
export async function installItem(place: InstallPlace, item: ItemToInstall, others: OtherItems): Promise<InstalledItem> {
  const download = await checkedDownload(place.steamDir, workshopApp(place.steam), item.workshopId);
  if (place.lowerCase) await lowerCaseTree(download, item.workshopId);
  const folder = await chooseFolder(place, item, download, others);

  let keys: string[] = [];
  const { key_file_extension: extension, keys_folder: keysFolderName } = place.steam;
  if (extension && keysFolderName) {
    const dir = await keysFolder(place.installation, keysFolderName, item.workshopId);
    const found = await keysIn(download, extension, item.workshopId);
    const rules = { protectedKeys: place.steam.protected_keys, listedByOthers: others.keys, previous: item.keys };
    keys = await placeKeys(dir, found, rules, item.workshopId);
    // A key the older version brought and this one does not goes with it.
    await removeKeys(
      dir,
      item.keys.filter((k) => !keys.includes(k)),
      rules,
    );
  }

  const path = join(place.installation, folder);
  if ((await linkTarget(path)) !== download) {
    const temporary = join(place.installation, `.${folder}.${randomBytes(6).toString('hex')}.tmp`);
    await symlink(download, temporary, process.platform === 'win32' ? 'junction' : 'dir');
    await rename(temporary, path).catch(async (err: unknown) => {
      await rm(temporary, { force: true });
      throw err;
    });
  }
  if (item.folder && item.folder !== folder) await unlinkOurs(place, item.folder, item.workshopId, others);
  return { folder, keys };
}

/** Removes the link at `folder` when it is this item's link to its download and no other item uses it. */
async function unlinkOurs(place: InstallPlace, folder: string, workshopId: string, others: OtherItems): Promise<void> {
  if (others.folders.has(folder)) return;
  const path = join(place.installation, folder);
  const download = downloadFolder(place.steamDir, workshopApp(place.steam), workshopId);
  const target = await linkTarget(path);
  // A folder of that name that is not our link (copied in by hand meanwhile) is not ours to remove.
  if (target !== null && (target === download || target.endsWith(join('content', String(place.steam.workshop_app_id), workshopId))))
    await unlink(path);
}

/**
 * Takes an installed item out of the installation: its link, and the keys it brought except the game's
 * protected ones and those another installed item of the installation still lists. The download stays
 * in GARRISON_STEAM_DIR (another installation may link it).
 */
export async function removeInstalledItem(
  place: InstallPlace,
  item: { workshopId: string; folder: string | null; keys: readonly string[] },
  others: OtherItems,
): Promise<void> {
  if (item.folder) await unlinkOurs(place, item.folder, item.workshopId, others);
  const { key_file_extension: extension, keys_folder: keysFolderName } = place.steam;
  if (!extension || !keysFolderName || !item.keys.length) return;
  const dir = join(place.installation, keysFolderName);
  const stat = await lstatOrNull(dir);
  if (!stat?.isDirectory()) return;
  await removeKeys(dir, item.keys, { protectedKeys: place.steam.protected_keys, listedByOthers: others.keys });
}
