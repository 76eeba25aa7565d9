import { mkdir, readdir, rename, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ifMissing } from '@garrison/core';

/**
 * An extracted part of a backup, its files moved to the names the part has now (`BackupPart.rename`):
 * a backup made when the server's files were named otherwise is put back where the game now reads them.
 * A file whose new name the archive holds already stays where it is (the archive's own says more), and
 * folders left empty by the moves are removed. Answers how many files moved.
 */
export async function renameExtracted(root: string, renamed: (path: string) => string): Promise<number> {
  /** Moves what `relative` holds; answers how many files moved out of it. */
  const walk = async (relative: string): Promise<number> => {
    let moved = 0;
    for (const entry of await readdir(join(root, relative), { withFileTypes: true }).catch(ifMissing([]))) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        moved += await walk(path);
        continue;
      }
      const to = renamed(path);
      if (to === path || !to || to.split('/').includes('..')) continue;
      if (await stat(join(root, to)).then(() => true, ifMissing(false))) continue;
      await mkdir(dirname(join(root, to)), { recursive: true });
      await rename(join(root, path), join(root, to));
      moved += 1;
    }
    // Emptied by the moves: gone, so that the old name is not put back as an empty folder (an empty folder of the archive stays).
    if (relative && moved > 0 && (await readdir(join(root, relative)).catch(ifMissing(['?']))).length === 0)
      await rmdir(join(root, relative));
    return moved;
  };
  return walk('');
}
