import { closeSync, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ApiError } from '@garrison/core';
import { errnoOf, isMissing } from '@garrison/core/expected-errors';
import type { ImportFileAccess } from '@garrison/core';

/** The most an imported file may hold: config files are a few KiB; a bigger one is not one. */
export const IMPORT_FILE_LIMIT = 1024 * 1024;

/**
 * Why the service will not have a file read although it is in the game folder (a folder of its own, another server's); null when it may.
 */
export type ImportGuard = (realPath: string) => string | null;

/**
 * The only way an importer reads: inside the game folder (links resolved first, so none leads out) and
 * where the service's guard allows, at most 1 MiB a file, as text (a file with a NUL byte is not text).
 * A file named by the admin must be there (400 naming the field); a file looked for in its usual place
 * may be missing (null). No error holds a byte of what a file says.
 */
export class ImportFiles implements ImportFileAccess {
  readonly root: string;

  constructor(
    gameFolder: string,
    private readonly guard: ImportGuard = () => null,
  ) {
    try {
      this.root = realpathSync(gameFolder);
    } catch (err) {
      const why = isMissing(err) ? 'does not exist' : `cannot be read (${errnoOf(err) ?? (err as Error).message})`;
      throw new ApiError('VALIDATION_ERROR', `field 'exe_path': the game folder ${gameFolder} ${why}`, { cause: err });
    }
  }

  /** A path as written in a file or a command line: relative ones are the game folder's, `\` a separator. */
  resolve(path: string): string {
    const unix = path.replace(/\\/g, '/');
    return isAbsolute(unix) ? unix : resolve(this.root, unix);
  }

  /** Where `path` really is, when it is inside the game folder; why not otherwise. */
  inside(path: string): { path: string } | { refused: string } {
    if (/^[A-Za-z]:[\\/]/.test(path)) return { refused: `${path} is a Windows path, not one on this host` };
    const wanted = this.resolve(path);
    let real: string;
    try {
      real = realpathSync(wanted);
    } catch (err) {
      if (!isMissing(err)) return { refused: `${path} cannot be resolved (${errnoOf(err) ?? (err as Error).message})` };
      real = wanted; // missing: judged by where it would be
    }
    const rel = relative(this.root, real);
    if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
      return { refused: `${path} is outside the game folder ${this.root}` };
    const refused = this.guard(real);
    return refused ? { refused } : { path: real };
  }

  /** The text of a file the admin named (`field`): refused outside the game folder, missing, over 1 MiB, or not a file. */
  readNamed(path: string, field: string): { path: string; text: string } {
    const at = this.inside(path);
    if ('refused' in at) throw new ApiError('VALIDATION_ERROR', `field '${field}': ${at.refused}`);
    const text = this.readText(at.path, field);
    if (text === null) throw new ApiError('VALIDATION_ERROR', `field '${field}': ${path} does not exist`);
    return { path: at.path, text };
  }

  /** The text of a file in its usual place, or null when there is none. */
  readUsual(path: string, field: string): { path: string; text: string } | null {
    const at = this.inside(path);
    if ('refused' in at) return null;
    const text = this.readText(at.path, field);
    return text === null ? null : { path: at.path, text };
  }

  list(folder: string): string[] {
    const at = this.inside(folder);
    if ('refused' in at) return [];
    try {
      return readdirSync(at.path).sort();
    } catch (err) {
      if (isMissing(err)) return [];
      throw new ApiError('VALIDATION_ERROR', `${folder} cannot be listed (${errnoOf(err) ?? (err as Error).message})`, { cause: err });
    }
  }

  join(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  private readText(path: string, field: string): string | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw new ApiError('VALIDATION_ERROR', `field '${field}': ${path} cannot be read (${code ?? (err as Error).message})`);
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new ApiError('VALIDATION_ERROR', `field '${field}': ${path} is not a file`);
      if (stat.size > IMPORT_FILE_LIMIT)
        throw new ApiError('VALIDATION_ERROR', `field '${field}': ${path} is ${stat.size} bytes, over the 1 MiB a config file may have`);
      // Read by the descriptor that was checked, up to one byte past the limit: a file growing meanwhile is still caught.
      const buffer = Buffer.alloc(Math.min(stat.size, IMPORT_FILE_LIMIT) + 1);
      let length = 0;
      for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;) length += n;
      if (length > IMPORT_FILE_LIMIT)
        throw new ApiError('VALIDATION_ERROR', `field '${field}': ${path} grew over the 1 MiB a config file may have`);
      const bytes = buffer.subarray(0, length);
      if (bytes.includes(0))
        throw new ApiError('VALIDATION_ERROR', `field '${field}': ${path} is not a text file (it holds NUL bytes), so not a config file`);
      return bytes.toString('utf8');
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(
        'VALIDATION_ERROR',
        `field '${field}': ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    } finally {
      closeSync(fd);
    }
  }
}
