import { copyFile, lstat, mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '@garrison/core';
import { layout, PROFILE_NAME } from './layout.js';
import { ifMissing } from '@garrison/core';

/** What the game writes again at each start (logs, crash dumps): never a server's state. */
export const GAME_LOG_FILES = ['*.rpt', '*.log', '*.mdmp', '*.bidmp', '*.dmp'] as const;
const isGameLog = (name: string) => GAME_LOG_FILES.some((pattern) => name.toLowerCase().endsWith(pattern.slice(1)));

/**
 * A server that shared `<exe dir>/server` with another gets its own profiles folder: a copy of the shared
 * one, its `Users/server/server.*` files renamed for its own `-name=`, so that every line the game wrote
 * there (and `.vars` files) goes with it. The logs stay where they are: the game's lines of two servers
 * in one folder cannot be told apart. Each file is copied beside its place and renamed into it, and the
 * shared folder is only read, so an interrupted copy is simply made again.
 */
export async function separateFolders(shared: ServerContext, own: ServerContext): Promise<string[]> {
  const from = layout(shared);
  const to = layout(own);
  if (from.profiles === to.profiles) return [];
  const userFrom = join('Users', from.name);
  const copyTree = async (relative: string, target: string): Promise<void> => {
    const entries = await readdir(join(from.profiles, relative), { withFileTypes: true }).catch(ifMissing([]));
    for (const entry of entries) {
      const source = join(from.profiles, relative, entry.name);
      // A link could point anywhere: the copy keeps to what the folder holds itself.
      if ((await lstat(source)).isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        const inner = join(relative, entry.name);
        await copyTree(inner, inner === userFrom ? join(to.profiles, 'Users', to.name) : join(target, entry.name));
      } else if (entry.isFile() && !isGameLog(entry.name)) {
        const name =
          relative === userFrom && entry.name.startsWith(`${from.name}.`) ? `${to.name}${entry.name.slice(from.name.length)}` : entry.name;
        await mkdir(target, { recursive: true });
        const temp = join(target, `.${name}.garrison-copy`);
        await copyFile(source, temp);
        await rename(temp, join(target, name));
      }
    }
  };
  await copyTree('', to.profiles);
  return [to.profiles];
}

/**
 * For a backup made before the server had a profile folder of its own (when it shared the installation's
 * `server` one): its `Users/server/server.*` files are the server's profile, which the game now reads as
 * `Users/<own name>/<own name>.*`. Without this, a restore would put the profile where the game never
 * looks, and the server would start without it.
 */
export function sharedProfileRenamed(name: string): ((path: string) => string) | undefined {
  if (name === PROFILE_NAME) return undefined;
  return (path) => {
    const parts = path.split('/');
    if (parts[0] !== 'Users' || parts[1] !== PROFILE_NAME) return path;
    parts[1] = name;
    if (parts.length === 3 && parts[2].startsWith(`${PROFILE_NAME}.`)) parts[2] = `${name}${parts[2].slice(PROFILE_NAME.length)}`;
    return parts.join('/');
  };
}
