import { randomBytes } from 'node:crypto';
import { rename, rm, symlink } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { ApiError, type ModDescription, type SteamDeclaration } from '@garrison/core';
import { checkedDownload, downloadFolder, inDownload, linkLowerCaseTree, lstatOrNull, madeFromDownload, unsafe } from './download-tree.js';
import { safeFolderName, suffixed } from './mod-name.js';
import { keysFolder, keysIn, placeKeys, removeKeys } from './keys.js';

/**
 * Installing a downloaded Workshop item into a server's installation, on the filesystem alone: the mod
 * folder `<prefix><name>` as a link to the download, or, where the game's Linux server needs lower-case
 * names, a folder of lower-case folders whose files link to the download's; its keys copied into the keys
 * folder. Nothing outside GARRISON_STEAM_DIR is read and nothing outside the installation is written:
 * SteamCMD's download keeps its names, as its next `validate` looks for them.
 */

/** Where, and by which of the game's rules, an item is installed. */
export interface InstallPlace {
  steamDir: string;
  /** The server's installation: the folder of its executable. */
  installation: string;
  steam: SteamDeclaration;
  /** Whether names are lower-cased (the game's Linux server on Linux: `lowerCaseHere`). */
  lowerCase: boolean;
  /** What a mod folder says of itself, by the game's adapter (its folder name), when the game reads mods' files. */
  describe?: (folder: string) => Promise<ModDescription>;
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

/**
 * Whether a link's target is this item's download: where it is now (`download`, its real path, or where
 * the place says), or, `anySteamDir`, the item's folder under any Steam folder (GARRISON_STEAM_DIR moved).
 */
function ofItem(place: InstallPlace, workshopId: string, download: string | null, anySteamDir = false) {
  const here = downloadFolder(place.steamDir, workshopApp(place.steam), workshopId);
  const tail = `${sep}${join('content', String(place.steam.workshop_app_id), workshopId)}`;
  return (target: string) =>
    inDownload(here, target) ||
    (download !== null && inDownload(download, target)) ||
    (anySteamDir && (target.endsWith(tail) || target.includes(tail + sep)));
}

/**
 * The folder the item gets: the one it had while that is still its link; else the name its files give it
 * (the adapter's `describeMod`) or its title, made safe; `_<id>` added when that name is another's (a folder not ours, or
 * another item's).
 */
async function chooseFolder(place: InstallPlace, item: ItemToInstall, download: string, others: OtherItems): Promise<string> {
  const mine = (folder: string) => madeFromDownload(join(place.installation, folder), ofItem(place, item.workshopId, download));
  // Never the keys folder (a prefix-less game's item named like it would take its place).
  const keys = place.steam.keys_folder?.toLowerCase();
  const free = async (folder: string) => {
    if (folder.toLowerCase() === keys) return false;
    const owner = others.folders.get(folder);
    if (owner !== undefined && owner !== item.workshopId) return false;
    return !(await lstatOrNull(join(place.installation, folder))) || (await mine(folder));
  };
  if (item.folder && (await mine(item.folder))) return item.folder;
  const described = await place.describe?.(download);
  const name = described?.folder_name || described?.display_name || item.title;
  const plain = safeFolderName(name, place.steam.mod_folder_prefix, item.workshopId, place.lowerCase);
  if (await free(plain)) return plain;
  const other = suffixed(plain, item.workshopId);
  if (await free(other)) return other;
  throw unsafe(item.workshopId, `both ${plain} and ${other} are taken in the installation by folders not its own`);
}

/**
 * The mod folder made under a temporary name beside where it goes: a link to the download, or the
 * lower-case tree. Answers that name; place it with `putInPlace`.
 */
async function makeFolder(place: InstallPlace, folder: string, download: string, workshopId: string): Promise<string> {
  const temporary = join(place.installation, `.${folder}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    if (place.lowerCase) await linkLowerCaseTree(download, temporary, workshopId);
    else await symlink(download, temporary, process.platform === 'win32' ? 'junction' : 'dir');
  } catch (err) {
    await rm(temporary, { recursive: true, force: true });
    throw err;
  }
  return temporary;
}

/**
 * The new mod folder in place of what is there (this item's: chooseFolder checked): a link over a link at
 * once; else the old one moved aside first (a folder is not renamed over), then removed.
 */
async function putInPlace(place: InstallPlace, made: string, folder: string): Promise<void> {
  const path = join(place.installation, folder);
  const existing = await lstatOrNull(path);
  if (!existing || (existing.isSymbolicLink() && !place.lowerCase)) return rename(made, path);
  const old = `${made.slice(0, -'.tmp'.length)}.old`;
  await rename(path, old);
  await rename(made, path);
  await rm(old, { recursive: true, force: true });
}

/**
 * Installs a downloaded item (SteamCMD left it in `<steamDir>/steamapps/workshop/content/<app>/<id>/`):
 * makes its mod folder (lower-case where the place says so), checks and copies its keys, and puts the
 * folder in place. Again on an update: the folder stays, the keys follow the new version. `recordKeys`
 * is given the key files about to be written, before the first is (the caller records them as the
 * item's). Throws WORKSHOP_UNSAFE_ITEM or WORKSHOP_KEY_CONFLICT with what is wrong, leaving the
 * installation's keys as they were.
 */
export async function installItem(
  place: InstallPlace,
  item: ItemToInstall,
  others: OtherItems,
  recordKeys?: (names: string[]) => Promise<void>,
): Promise<InstalledItem> {
  const download = await checkedDownload(place.steamDir, workshopApp(place.steam), item.workshopId);
  const folder = await chooseFolder(place, item, download, others);
  const made = await makeFolder(place, folder, download, item.workshopId);
  try {
    let keys: string[] = [];
    const { key_file_extension: extension, keys_folder: keysFolderName } = place.steam;
    if (extension && keysFolderName) {
      const dir = await keysFolder(place.installation, keysFolderName, item.workshopId);
      const found = await keysIn(download, extension, item.workshopId, place.lowerCase);
      const rules = { protectedKeys: place.steam.protected_keys, listedByOthers: others.keys, previous: item.keys };
      keys = await placeKeys(dir, found, rules, item.workshopId, recordKeys);
      // A key the older version brought and this one does not goes with it.
      await removeKeys(
        dir,
        item.keys.filter((k) => !keys.includes(k)),
        rules,
      );
    }
    await putInPlace(place, made, folder);
    if (item.folder && item.folder !== folder) await unlinkOurs(place, item.folder, item.workshopId, others);
    return { folder, keys };
  } finally {
    await rm(made, { recursive: true, force: true });
  }
}

/** Removes the mod folder at `folder` when installing this item made it and no other item uses it. */
async function unlinkOurs(place: InstallPlace, folder: string, workshopId: string, others: OtherItems): Promise<void> {
  if (others.folders.has(folder)) return;
  const path = join(place.installation, folder);
  // A folder of that name that is not what we made (copied in by hand meanwhile) is not ours to remove.
  if (await madeFromDownload(path, ofItem(place, workshopId, null, true))) await rm(path, { recursive: true, force: true });
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
