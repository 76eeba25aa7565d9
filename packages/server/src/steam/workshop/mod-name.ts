import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ifUnreadable } from '@garrison/core';
import { lstatOrNull } from './download-tree.js';

/** The longest mod folder name made, its prefix included. */
const MAX_FOLDER_LENGTH = 64;
/** The files a Workshop download names itself in, in this order (its launcher writes the first, its author the second). */
const NAME_FILES = ['meta.cpp', 'mod.cpp'];
/** They are a few lines: a bigger file is not one of them. */
const MAX_BYTES = 64 * 1024;
const NAME_LINE = /^\s*name\s*=\s*"((?:[^"]|"")*)"\s*;/im;

/** A small regular file's text (a link is not followed), or null. */
async function readSmall(path: string): Promise<string | null> {
  const stat = await lstatOrNull(path);
  if (!stat?.isFile() || stat.size > MAX_BYTES) return null;
  const file = await open(path, 'r').catch(ifUnreadable(null));
  if (!file) return null;
  try {
    return (await file.readFile()).toString('utf8');
  } finally {
    await file.close();
  }
}

/** The name a download gives itself (`name = "…";` of meta.cpp, else of mod.cpp, file names in any case), or null. */
export async function declaredName(download: string): Promise<string | null> {
  const names = await readdir(download).catch(ifUnreadable<string[]>([]));
  for (const wanted of NAME_FILES) {
    const found = names.find((n) => n.toLowerCase() === wanted);
    const text = found ? await readSmall(join(download, found)) : null;
    const name = text === null ? null : (NAME_LINE.exec(text)?.[1]?.replace(/""/g, '"').trim() ?? null);
    if (name) return name;
  }
  return null;
}

/**
 * A folder name a game and a shell take as it is: `<prefix><name>` of letters, digits, `_`, `-` and `.`
 * (every other run of characters one `_`), no `..`, no dot or `_` at either end, at most 64 characters
 * with the prefix; the id when nothing of the name is left.
 */
export function safeFolderName(name: string, prefix: string, fallback: string, lowerCase: boolean): string {
  let safe = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // é → e: the accents NFKD split off
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/_{2,}/g, '_')
    .slice(0, MAX_FOLDER_LENGTH - prefix.length)
    .replace(/^[._-]+|[._]+$/g, '');
  if (!safe) safe = fallback;
  const folder = `${prefix}${safe}`;
  return lowerCase ? folder.toLowerCase() : folder;
}

/** `folder` with `_<id>` at its end, still within 64 characters: the name when the plain one is taken. */
export function suffixed(folder: string, workshopId: string): string {
  const suffix = `_${workshopId}`;
  return `${folder.slice(0, MAX_FOLDER_LENGTH - suffix.length).replace(/[._]+$/, '')}${suffix}`;
}
