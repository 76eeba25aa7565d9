import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { ApiError, errnoOf } from '@garrison/core';
import { settlesWithin, type Clock, type Timer } from '../jobs/clock.js';
import { signalGroup } from '../processes/proc.js';
import type { SteamCmdPidFile } from './pid-file.js';

/** The time limits of one SteamCMD process. */
export interface ProcessLimits {
  /** The longest one run may take, whatever it prints. */
  timeoutMs: number;
  /** The longest it may print nothing (a stuck login, a dead connection). */
  idleTimeoutMs: number;
  /** Between SIGTERM and SIGKILL, when it is stopped. */
  killGraceMs: number;
}

export interface ProcessSpec {
  executable: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the running process is recorded, for the next start of the service to end it if it outlived this one. */
  pidFile?: SteamCmdPidFile;
}

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when a time limit stopped it. */
  stopped: 'timeout' | 'idle' | null;
}

/**
 * Why the executable could not be started, as a clean error: Node's own carries the whole command line
 * (`spawnargs`), which must never reach a log or an answer, and is not rethrown.
 */
function notStarted(spec: ProcessSpec, err: unknown): ApiError {
  const code = errnoOf(err);
  if (code !== undefined && ['ENOENT', 'EACCES', 'ENOTDIR', 'EISDIR'].includes(code)) {
    return new ApiError(
      'STEAMCMD_NOT_FOUND',
      `SteamCMD could not be started: ${spec.executable} cannot be run (${code}): ` +
        'install it, or set GARRISON_STEAMCMD_PATH to its executable',
    );
  }
  return new ApiError('STEAMCMD_FAILED', `SteamCMD could not be started: ${code ?? 'the system refused to start it'}`);
}

/** What a cancelled run rejects with: the same kind of error as a cancelled wait on the clock. */
const cancelled = () => Object.assign(new Error('the SteamCMD run was cancelled'), { name: 'AbortError' });

/**
 * Runs one process to its end, its output handed to `onOutput` as it comes. It runs in a process group
 * of its own, so that stopping it (a time limit, `signal` aborting) reaches what it started: SIGTERM to
 * the group, SIGKILL after the grace. Its stdin is closed: a prompt reads end-of-file instead of waiting.
 * Rejects with STEAMCMD_NOT_FOUND when the executable cannot be run, with an AbortError when cancelled.
 */
export async function runProcess(
  spec: ProcessSpec,
  limits: ProcessLimits,
  clock: Clock,
  signal: AbortSignal | undefined,
  onOutput: (chunk: string, stream: 'stdout' | 'stderr') => void,
): Promise<ProcessEnd> {
  if (signal?.aborted) throw cancelled();
  let child: ChildProcessByStdio<null, Readable, Readable>;
  try {
    child = spawn(spec.executable, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true, // a group of its own: the whole of it can be signalled
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } catch (err) {
    throw notStarted(spec, err);
  }
  const pid = child.pid!;
  try {
    spec.pidFile?.record(pid);
  } catch (err) {
    signalGroup(pid, 'SIGKILL'); // a run that could not be recorded is not left to run
    throw err;
  }
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, sig) => resolve({ code, signal: sig })),
  );
  // What the run started and left behind holds its pipes open: nothing of a run outlives it.
  child.once('exit', () => signalGroup(pid, 'SIGKILL'));

  let stopped: 'timeout' | 'idle' | 'abort' | null = null;
  const stop = (why: 'timeout' | 'idle' | 'abort') => {
    if (stopped) return;
    stopped = why;
    signalGroup(pid, 'SIGTERM');
    void settlesWithin(clock, closed, limits.killGraceMs, `steamcmd ${pid} grace`).then((ended) => {
      if (!ended) signalGroup(pid, 'SIGKILL');
    });
  };
  let idle: Timer | null = null;
  const armIdle = () => {
    idle?.cancel();
    idle = clock.setTimeout(() => stop('idle'), limits.idleTimeoutMs, 'steamcmd idle');
  };
  const total = clock.setTimeout(() => stop('timeout'), limits.timeoutMs, 'steamcmd timeout');
  const onAbort = () => stop('abort');
  signal?.addEventListener('abort', onAbort, { once: true });
  armIdle();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8'); // a character cut between two chunks is joined again
    child[stream].on('data', (chunk: string) => {
      armIdle();
      onOutput(chunk, stream);
    });
  }
  try {
    const end = await closed;
    if (stopped === 'abort') throw cancelled();
    return { ...end, stopped };
  } finally {
    spec.pidFile?.clear(pid);
    total.cancel();
    (idle as Timer | null)?.cancel();
    signal?.removeEventListener('abort', onAbort);
  }
}
