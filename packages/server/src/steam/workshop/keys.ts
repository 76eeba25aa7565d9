import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ApiError } from '@garrison/core';
import { lstatOrNull, unsafe, walk } from './download-tree.js';

/**
 * The signing keys a mod brings (every `*<key_file_extension>` anywhere in it, not only in its keys
 * folder) copied into the installation's keys folder, and taken out again with the mod. A key of the
 * same name with other bytes is never overwritten unless this mod brought it (its older version): the
 * item fails with WORKSHOP_KEY_CONFLICT instead, as a server with the wrong key refuses players.
 */

/** Keys are a few hundred bytes: a bigger file with their extension is not read. */
const MAX_KEY_BYTES = 64 * 1024;

const conflict = (id: string, name: string, why: string) =>
  new ApiError('WORKSHOP_KEY_CONFLICT', `Workshop item ${id} is not installed: its key ${name} ${why}`);

/**
 * The keys in a download by file name (in lower case when `lowerCase`: the game's Linux server loads only
 * those); two of one name with other bytes are a conflict of the item itself.
 */
export async function keysIn(download: string, extension: string, workshopId: string, lowerCase = false): Promise<Map<string, Buffer>> {
  const keys = new Map<string, Buffer>();
  for (const entry of await walk(download)) {
    const name = lowerCase ? basename(entry.path).toLowerCase() : basename(entry.path);
    if (entry.kind !== 'file' || !name.toLowerCase().endsWith(extension.toLowerCase()) || name.length > 255) continue;
    const stat = await lstatOrNull(entry.path);
    if (!stat?.isFile() || stat.size > MAX_KEY_BYTES) continue;
    const bytes = await readFile(entry.path);
    const seen = keys.get(name);
    if (seen && !seen.equals(bytes)) throw conflict(workshopId, name, 'is in the mod twice, with other bytes');
    keys.set(name, bytes);
  }
  return keys;
}

/** The keys folder of an installation, made when missing; refused when it is a link (nothing is written out of the installation). */
export async function keysFolder(installation: string, folder: string, workshopId: string): Promise<string> {
  const dir = join(installation, folder);
  const stat = await lstatOrNull(dir);
  if (stat && !stat.isDirectory()) throw unsafe(workshopId, `the installation's ${folder} is not a folder (a link is not followed)`);
  if (!stat) await mkdir(dir, { recursive: true });
  return dir;
}

export interface KeyRules {
  /** Keys Garrison never writes nor removes (the game's own). */
  protectedKeys: readonly string[];
  /** Keys other installed items of the installation list. */
  listedByOthers: ReadonlySet<string>;
  /** The keys this item listed before (its older version). */
  previous: readonly string[];
}

/**
 * Copies the keys in (each written to a temporary name, then renamed over: atomic) after checking all of
 * them, so that a conflict leaves the folder as it was. `beforeWrite` is given the names about to be
 * written before the first is (the item's row records them: a crash after cannot leave a key nobody
 * owns). Answers the keys this item now lists: those it wrote, and those already there with its bytes
 * that another item lists (a key shared by two mods).
 */
export async function placeKeys(
  dir: string,
  keys: Map<string, Buffer>,
  rules: KeyRules,
  workshopId: string,
  beforeWrite?: (names: string[]) => Promise<void>,
): Promise<string[]> {
  const protectedKeys = new Set(rules.protectedKeys.map((k) => k.toLowerCase()));
  const writes: [string, Buffer][] = [];
  const listed: string[] = [];
  for (const [name, bytes] of keys) {
    const path = join(dir, name);
    const stat = await lstatOrNull(path);
    if (stat && !stat.isFile()) throw conflict(workshopId, name, `meets a ${stat.isDirectory() ? 'folder' : 'link'} of that name`);
    const existing = stat ? await readFile(path) : null;
    const isProtected = protectedKeys.has(name.toLowerCase());
    if (existing?.equals(bytes)) {
      // The game's own key, or one placed by hand, is not this mod's to list (nor, later, to remove).
      if (!isProtected && (rules.listedByOthers.has(name) || rules.previous.includes(name))) listed.push(name);
      continue;
    }
    if (existing) {
      if (isProtected) throw conflict(workshopId, name, "has other bytes than the game's own key of that name");
      if (rules.listedByOthers.has(name)) throw conflict(workshopId, name, 'has other bytes than the key of that name another mod brought');
      if (!rules.previous.includes(name)) throw conflict(workshopId, name, 'has other bytes than the key of that name already there');
    } else if (isProtected) throw conflict(workshopId, name, "is named as the game's own key");
    writes.push([name, bytes]);
    listed.push(name);
  }
  if (writes.length && beforeWrite) await beforeWrite(writes.map(([name]) => name).sort());
  for (const [name, bytes] of writes) {
    const temporary = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, bytes);
    await rename(temporary, join(dir, name));
  }
  return listed.sort();
}

/** Removes these keys, except the protected ones and those another item still lists. */
export async function removeKeys(dir: string, keys: readonly string[], rules: Omit<KeyRules, 'previous'>): Promise<void> {
  const protectedKeys = new Set(rules.protectedKeys.map((k) => k.toLowerCase()));
  for (const name of keys) {
    if (protectedKeys.has(name.toLowerCase()) || rules.listedByOthers.has(name) || basename(name) !== name) continue;
    const stat = await lstatOrNull(join(dir, name));
    if (stat?.isFile()) await rm(join(dir, name), { force: true });
  }
}
