import { ApiError, type ErrorCode } from './errors.js';

/*
 * What a catch expects, named. A catch hands its error to one of these (or looks at it itself): the
 * failure it expects becomes a value, every other one goes on to whoever can report it. The architecture
 * test refuses a catch that does neither.
 */

/** The code of a failed system call (ENOENT, EEXIST, ESRCH…), or undefined for any other failure. */
export function errnoOf(err: unknown): string | undefined {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A path that is not there: ENOENT, or ENOTDIR (a part of it is a file, so nothing is below it). */
export const isMissing = (err: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes(errnoOf(err) ?? '');

/** For `.catch`: `fallback` when the failure is one of these system-call codes; any other is passed on. */
export function ifErrno<T>(codes: readonly string[], fallback: T): (err: unknown) => T {
  return (err) => {
    if (codes.includes(errnoOf(err) ?? '')) return fallback;
    throw err;
  };
}

/** For `.catch`: `fallback` when the path is not there (ENOENT, ENOTDIR); any other failure is passed on. */
export const ifMissing = <T>(fallback: T): ((err: unknown) => T) => ifErrno(['ENOENT', 'ENOTDIR'], fallback);

/** For `.catch`: `fallback` when the file cannot be read — not there, not ours to read, or a folder; any other failure is passed on. */
export const ifUnreadable = <T>(fallback: T): ((err: unknown) => T) =>
  ifErrno(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EISDIR'], fallback);

/** For `.catch`: `fallback` when the failure is an ApiError of this code (NOT_FOUND: deleted meanwhile); any other is passed on. */
export function ifApiError<T>(code: ErrorCode, fallback: T): (err: unknown) => T {
  return (err) => {
    if (err instanceof ApiError && err.code === code) return fallback;
    throw err;
  };
}

/** Rethrows `err` unless it is one of `kinds`: a catch that handles only, say, JSON's SyntaxError says so first. */
export function expectOnly<K extends (abstract new (...args: never[]) => Error)[]>(
  err: unknown,
  ...kinds: K
): asserts err is InstanceType<K[number]> {
  if (!kinds.some((kind) => err instanceof kind)) throw err;
}
