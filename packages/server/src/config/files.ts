import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ApiError, type RenderedFile } from '@garrison/core';

/**
 * Writes the game's config files, each through a temporary file renamed into place, so the game
 * never reads a half-written file and a crash leaves the previous version. Mode 0600: they hold
 * passwords.
 */
export async function writeConfigFiles(files: RenderedFile[]): Promise<void> {
  for (const file of files) {
    try {
      await mkdir(dirname(file.path), { recursive: true });
      await writeFileAtomic(file.path, file.content, { mode: 0o600, fsync: true });
    } catch (err) {
      throw new ApiError(
        'CONFIG_WRITE_ERROR',
        `could not write ${file.label}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        { cause: err },
      );
    }
  }
}
