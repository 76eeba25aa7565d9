import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
// The subpath, not the whole contract: a look at /proc must load even with few descriptors left.
import { errnoOf, expectOnly, ifErrno } from '@garrison/core/expected-errors';

/**
 * What the kernel says about a pid (Linux /proc). The start time tells one process from another that
 * later got the same pid; the command line tells whether it runs the server's executable.
 */

/**
 * What a look at the process table says of a pid: it runs, it is gone, or the look itself failed and
 * tells nothing (out of file descriptors, say: a flood of connections can use them all up). An unknown
 * is never taken for gone: a game marked crashed while it runs on is orphaned, holding its ports.
 */
export type Liveness = 'running' | 'gone' | 'unknown';

/** Reading /proc failed for a reason other than the process being gone (EMFILE, ENFILE, ENOMEM…). */
export class ProcUnreadable extends Error {
  constructor(
    readonly pid: number,
    readonly code: string,
  ) {
    super(`could not read /proc/${pid}: ${code}`);
  }
}

/** The errors by which the kernel says that no such process is left. */
const GONE_CODES = new Set(['ENOENT', 'ESRCH']);

/** A path, or an entry of /proc, that is not there or not ours to read (another user's process). */
const NOT_READABLE = ['ENOENT', 'ENOTDIR', 'ESRCH', 'EACCES', 'EPERM', 'ELOOP'];
const isNotReadable = (err: unknown) => NOT_READABLE.includes(errnoOf(err) ?? '');

/**
 * The fields of `/proc/<pid>/stat` from field 3 (the state) on, or null when no such process runs. The
 * command name (field 2) may hold spaces and parentheses, so fields are counted after its closing one:
 * field N of the whole line is `[N - 3]` here. Throws ProcUnreadable when the read failed otherwise.
 */
function statFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (GONE_CODES.has(code)) return null;
    throw new ProcUnreadable(pid, code);
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Whether a process `pid` exists, asked without opening a file (signal 0 checks and sends nothing). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: it exists, someone else's
  }
}

/** Clock ticks after boot at which `pid` started, or null when no such process runs (or /proc could not be read). */
export function processStartTime(pid: number): string | null {
  try {
    return startTimeOf(pid);
  } catch (err) {
    expectOnly(err, ProcUnreadable);
    return null;
  }
}

function startTimeOf(pid: number): string | null {
  const fields = statFields(pid);
  if (!fields || fields[0] === 'Z') return null; // a zombie has exited; only its exit status is left
  return fields[19] ?? null; // field 22: starttime
}

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

/** The share of one core a process used between two readings of its CPU ticks (at clock times in ms). */
export function cpuPercentBetween(before: { ticks: number; at: number }, after: { ticks: number; at: number }): number {
  const seconds = (after.at - before.at) / 1000;
  return seconds <= 0 ? 0 : Math.max(0, ((after.ticks - before.ticks) / TICKS_PER_SECOND / seconds) * 100);
}

/** Total CPU time of `pid` in clock ticks (user + system), and its resident memory in bytes; null when unknown. */
export function processUsage(pid: number): { ticks: number; rssBytes: number } | null {
  let fields: string[] | null;
  try {
    fields = statFields(pid);
  } catch (err) {
    expectOnly(err, ProcUnreadable);
    return null; // a sample missed, not a process gone: nothing here decides about its life
  }
  if (!fields) return null;
  // Fields 14 and 15: utime and stime; field 24: rss in pages.
  return { ticks: Number(fields[11]) + Number(fields[12]), rssBytes: Number(fields[21]) * 4096 };
}

const canonical = (path: string) => {
  try {
    return realpathSync(path);
  } catch (err) {
    if (!isNotReadable(err)) throw err;
    return path;
  }
};

/**
 * Whether `pid` runs `exePath`: its binary is that file, or (for a launcher script that exec'd an
 * interpreter) the file is among its arguments.
 */
export function runsExecutable(pid: number, exePath: string): boolean {
  const wanted = canonical(exePath);
  try {
    if (canonical(readlinkSync(`/proc/${pid}/exe`)) === wanted) return true;
  } catch (err) {
    if (!isNotReadable(err)) throw err; // not ours to read, or gone: the command line may still tell
  }
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((a) => a === exePath || (a.startsWith('/') && canonical(a) === wanted));
  } catch (err) {
    if (!isNotReadable(err)) throw err;
    return false;
  }
}

/**
 * Whether the process that started at `startTime` (null: any) still runs as `pid`. When /proc cannot be
 * read, a signal 0 (which needs no file descriptor) still tells a pid that is gone; one that exists is
 * `unknown`, since only its start time tells it from a later process that got the same pid.
 */
export function liveness(pid: number, startTime: string | null, onUnknown: (why: string) => void = () => {}): Liveness {
  try {
    const now = startTimeOf(pid);
    return now !== null && (startTime === null || now === startTime) ? 'running' : 'gone';
  } catch (err) {
    if (!(err instanceof ProcUnreadable)) throw err;
    if (!pidExists(pid)) return 'gone';
    onUnknown(err.message);
    return 'unknown';
  }
}

/** Sends `signal` to the process group `pid` leads (the game and anything it started). */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (groupErr) {
    if (!['ESRCH', 'EPERM'].includes(errnoOf(groupErr) ?? '')) throw groupErr;
    try {
      process.kill(pid, signal); // not a group leader (adopted from an older start): the process alone
    } catch (err) {
      if (errnoOf(err) !== 'ESRCH') throw err; // gone already
    }
  }
}

/** The paths of the files `pid` holds open; none when it is gone or not ours to read. */
export async function openFiles(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(ifErrno<string[]>(NOT_READABLE, []));
  return (await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(ifErrno(NOT_READABLE, ''))))).filter(Boolean);
}
