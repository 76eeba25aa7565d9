import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { ApiError, ifApiError, ifErrno, ifMissing, errnoOf } from '@garrison/core';

/** Why a file is not there for the asker: missing, not ours to see, or behind a loop of links or a name too long. */
const UNSEEN = ['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP', 'ENAMETOOLONG'];

/** For `.catch`: `fallback` when the file is not there to be seen (UNSEEN); any other failure is passed on. */
const ifUnseen = <T>(fallback: T) => ifErrno(UNSEEN, fallback);

/** For `.catch` of what opens or removes a file given out by name: one gone meanwhile is a 404 (`message`). */
export const notFoundIfUnseen =
  (message: string) =>
  (err: unknown): never => {
    if (UNSEEN.includes(errnoOf(err) ?? '')) throw new ApiError('NOT_FOUND', message, { cause: err });
    throw err;
  };

/**
 * Which files of a folder are given out: those with an extension (`.log`, any case), or those a game's
 * rule picks (`label` names them in a refusal: `no log file "x"`).
 */
export type FileKind = string | { label: string; accepts(name: string): boolean };

const accepts = (kind: FileKind, name: string) =>
  typeof kind === 'string' ? extname(name).toLowerCase() === kind.toLowerCase() : kind.accepts(name);

/**
 * The file called `name` in `folder`, or an error: `name` must be one plain file name (no separators of
 * either kind, no NUL, no `.`/`..`, no leading dot) of the wanted kind, and the file must be a
 * regular file whose real path is inside the folder, so that a symbolic link cannot lead out of it.
 * A name that could never be valid is 400; a file that is not there (or not allowed to be seen) is 404.
 */
export async function fileInFolder(folder: string, name: string, kind: FileKind): Promise<string> {
  if (/[/\\\0]/.test(name) || name.startsWith('.') || name.length > 255) {
    throw new ApiError('VALIDATION_ERROR', "path parameter 'filename': a plain file name, without folders");
  }
  if (!accepts(kind, name)) {
    throw new ApiError('NOT_FOUND', `no ${typeof kind === 'string' ? kind : kind.label} file ${JSON.stringify(name)}`);
  }
  const path = join(folder, name);
  const [realFolder, realFile, stats] = await Promise.all([
    realpath(folder).catch(ifUnseen(null)),
    realpath(path).catch(ifUnseen(null)),
    lstat(path).catch(ifUnseen(null)),
  ]);
  if (!realFolder || !realFile || !stats || !stats.isFile() || !realFile.startsWith(realFolder + sep)) {
    throw new ApiError('NOT_FOUND', `no file ${JSON.stringify(name)}`);
  }
  return realFile;
}

/**
 * The files of `kind` in `folder` that `fileInFolder` would give out, by name, with their size and time
 * of change; none when the folder does not exist.
 */
export async function filesInFolder(folder: string, kind: FileKind): Promise<{ name: string; size: number; modified: Date }[]> {
  const names = (await readdir(folder).catch(ifMissing<string[]>([])))
    .filter((n) => (typeof kind === 'string' ? n.toLowerCase().endsWith(kind.toLowerCase()) : kind.accepts(n)))
    .sort();
  const files = [];
  for (const name of names) {
    const path = await fileInFolder(folder, name, kind).catch(ifApiError('NOT_FOUND', null));
    const stats = path && (await stat(path).catch(ifMissing(null))); // gone meanwhile
    if (stats) files.push({ name, size: stats.size, modified: stats.mtime });
  }
  return files;
}
