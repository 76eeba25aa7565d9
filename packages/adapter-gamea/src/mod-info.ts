import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModDescription } from '@garrison/core';
import { readCfg } from './import/cfg-reader.js';
import { ifUnreadable } from '@garrison/core';

/** meta.cpp and mod.cpp are a few lines; a bigger file is not one of them and is not read. */
const MAX_BYTES = 64 * 1024;

async function readSmall(path: string): Promise<string | null> {
  const file = await open(path, 'r').catch(ifUnreadable(null));
  if (!file) return null;
  try {
    const buffer = Buffer.alloc(MAX_BYTES + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return bytesRead > MAX_BYTES ? null : buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

function valueOf(text: string | null, key: string): string | number | null {
  if (text === null) return null;
  const entry = readCfg(text, key).entries.find((e) => e.kind === 'value' && e.key.toLowerCase() === key);
  return entry?.kind === 'value' && (typeof entry.value === 'string' || typeof entry.value === 'number') ? entry.value : null;
}

/**
 * What a mod folder says of itself: the Workshop id the Steam client wrote into `meta.cpp`
 * (`publishedid`, 0 for a mod not from the Workshop) and the display name of `mod.cpp` (or, failing it,
 * `meta.cpp`'s `name`); a Workshop download's folder is named from meta.cpp's `name`, else mod.cpp's. Files
 * in any case; unreadable ones say nothing.
 */
export async function describeMod(folder: string): Promise<ModDescription> {
  const names = await readdir(folder).catch(ifUnreadable<string[]>([]));
  const find = (name: string) => names.find((n) => n.toLowerCase() === name);
  const meta = find('meta.cpp') ? await readSmall(join(folder, find('meta.cpp')!)) : null;
  const mod = find('mod.cpp') ? await readSmall(join(folder, find('mod.cpp')!)) : null;
  const id = valueOf(meta, 'publishedid');
  const idText = id === null ? null : String(id).trim();
  const name = valueOf(mod, 'name') ?? valueOf(meta, 'name');
  const text = (value: string | number | null) => (value === null ? null : String(value).trim().slice(0, 200) || null);
  return {
    workshop_id: idText && /^[1-9][0-9]{0,19}$/.test(idText) ? idText : null,
    display_name: text(name),
    // The launcher writes meta.cpp's name from the Workshop title: the folder is named as players know the mod.
    folder_name: text(valueOf(meta, 'name') ?? valueOf(mod, 'name')),
  };
}
