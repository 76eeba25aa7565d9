import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { withDeadline } from './waiting.js';
import { errnoOf } from '@garrison/core';

/** A process a test started: its output so far, and its end. */
export interface TestProcess {
  child: ChildProcess;
  pid: number;
  /** stdout, split into lines as they arrive. */
  stdout: string[];
  stderr: string[];
  /** Resolves with the exit code, or the signal's name when a signal ended it. */
  exited: Promise<number | string>;
  /** SIGKILL (to its whole group when it leads one), then waits for the exit. Safe to call twice. */
  kill(): Promise<void>;
}

const live = new Set<TestProcess>();
/**
 * How long the output may keep arriving after the exit (from a grandchild still holding the pipes).
 * Generous: a test process whose event loop was held up sees the timer and the end of the output
 * together, and the timer came first (a CLI test missed the service's last line on a busy machine).
 */
const STDIO_GRACE_MS = 5000;
/** Children started with `detached`: each leads its own process group, which is killed whole. */
const groupLeaders = new WeakSet<ChildProcess>();

// The last line of defence: a test process that ends for any reason takes its children with it.
process.once('exit', () => {
  for (const p of live) killNow(p.child);
});

function killNow(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(groupLeaders.has(child) ? -child.pid : child.pid, 'SIGKILL');
  } catch (err) {
    if (errnoOf(err) !== 'ESRCH') throw err; // already gone
  }
}

/**
 * Starts a process that the test owns: it is killed by `kill()`, by `killAll()` (call it in an
 * `after`/`finally`), and at the latest when the test process exits. Output is captured, never piped
 * to a reader that could go away.
 */
export function startProcess(command: string, args: string[] = [], options: SpawnOptions = {}): TestProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  if (options.detached) groupLeaders.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    stdout.push(...lines);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (err) => resolve(`spawn failed: ${err.message}`));
    // Resolved once the output is read to its end too ('close'), so that what the process wrote last is
    // in `stdout`; a grandchild holding the pipes open must not hold this, so 'exit' resolves it soon after.
    child.once('exit', (code, signal) => {
      const result = code ?? signal ?? 'unknown';
      child.once('close', () => resolve(result));
      // setImmediate: output already waiting to be read is read (the poll phase) before this resolves.
      setTimeout(() => setImmediate(() => resolve(result)), STDIO_GRACE_MS).unref();
    });
  });
  const p: TestProcess = {
    child,
    pid: child.pid ?? -1,
    stdout,
    stderr,
    exited,
    kill: async () => {
      killNow(child);
      await withDeadline(exited, 10_000, `exit of killed process ${child.pid} (${command})`);
    },
  };
  live.add(p);
  void exited.then(() => live.delete(p));
  return p;
}

/** Kills every process started by `startProcess` in this test process that is still running. */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.kill()));
}
