import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { settlesWithin, type Clock } from '../jobs/clock.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import { liveness, processStartTime, runsExecutable, signalGroup } from './proc.js';
import { ifMissing } from '@garrison/core';

/** An output file past this size is moved aside to `<name>.1` when a process starts writing to it. */
const OUTPUT_ROTATE_BYTES = 16 * 1024 * 1024;
/** How long a process is given to go after SIGKILL. */
const KILL_WAIT_MS = 10_000;
/** How often a process this service did not spawn (adopted after a restart) is checked for its exit. */
const ADOPTED_POLL_MS = 200;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnSpec {
  /** Unique per process, for the job that watches an adopted one (`3:headless:1`). */
  name: string;
  executable: string;
  args: string[];
  cwd: string;
  /** stdout and stderr go here, never to a pipe: the process does not depend on the service. */
  outputPath: string;
}

/**
 * One OS process the service runs: spawned in its own process group with its output in a file, or
 * adopted from an earlier run of the service by pid. It says when the process exits (the child's exit
 * event, or for an adopted one a poll of its pid), signals its whole group, and waits for its end.
 */
export class ProcessHandle {
  /** Set when someone asked the process to go (stop, kill): its exit is then no crash. */
  stopRequested = false;
  readonly exited: Promise<Exit>;
  private resolveExit!: (exit: Exit) => void;
  private poll: Job | null = null;
  private watching = true;

  private constructor(
    readonly pid: number,
    readonly startTime: string | null,
    private readonly child: ChildProcess | null,
    private readonly clock: Clock,
  ) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    void this.exited.then(() => (this.gone = true));
  }

  /** Set once the process has exited (or was let go). */
  gone = false;

  /** Starts the process; resolves once it runs, with where its output starts in its file. */
  static async spawn(spec: SpawnSpec, clock: Clock): Promise<{ handle: ProcessHandle; outputOffset: number }> {
    await mkdir(dirname(spec.outputPath), { recursive: true });
    const size = await stat(spec.outputPath).then((s) => s.size, ifMissing(0));
    const rotate = size > OUTPUT_ROTATE_BYTES;
    if (rotate) await rename(spec.outputPath, `${spec.outputPath}.1`);
    const output = await open(spec.outputPath, 'a', 0o600);
    try {
      const child = spawn(spec.executable, spec.args, {
        cwd: spec.cwd,
        detached: true, // its own process group: a signal to the service's group never reaches it
        stdio: ['ignore', output.fd, output.fd],
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.unref();
      const handle = new ProcessHandle(child.pid!, processStartTime(child.pid!), child, clock);
      child.once('exit', (code, signal) => handle.ended({ code, signal }));
      return { handle, outputOffset: rotate ? 0 : size };
    } finally {
      await output.close(); // the child holds its own copy of the descriptor
    }
  }

  /**
   * The process recorded as `pid` (started at `startTime`, running `executable`), when it still runs:
   * watched through a job that polls its pid. Null when it is gone (or the pid is now someone else's).
   * A look that cannot read the process table (out of file descriptors) decides nothing: the pid, which
   * a signal 0 says exists, is kept and looked at again at the next poll; `unreadable` hears of each
   * such streak once, and of its end.
   */
  static adopt(
    recorded: { name: string; pid: number; startTime: string | null; executable: string },
    clock: Clock,
    jobs: JobRunner,
    unreadable: (event: { pid: number; why: string | null }) => void = () => {},
  ): ProcessHandle | null {
    const { pid, startTime, executable } = recorded;
    let blind = false;
    const look = () => {
      let why = '';
      const state = liveness(pid, startTime, (reason) => (why = reason));
      if (state === 'unknown' && !blind) unreadable({ pid, why });
      else if (state !== 'unknown' && blind) unreadable({ pid, why: null });
      blind = state === 'unknown';
      return state;
    };
    const state = look();
    if (state === 'gone' || (state === 'running' && !runsExecutable(pid, executable))) return null;
    const handle = new ProcessHandle(pid, startTime, null, clock);
    handle.poll = jobs.every({
      name: `processes.watch:${recorded.name}`,
      everyMs: ADOPTED_POLL_MS,
      startNow: false,
      run: async () => {
        if (look() === 'gone') handle.ended({ code: null, signal: null });
      },
    });
    return handle;
  }

  /** To the whole group the process leads (what it started goes with it). */
  signal(signal: NodeJS.Signals): void {
    signalGroup(this.pid, signal);
  }

  /**
   * Asks the process to end (`ask`; SIGTERM to its group when none is given), gives it `graceMs`, then
   * kills it. True when it ended by itself.
   */
  async end(graceMs: number, ask: () => unknown = () => this.signal('SIGTERM')): Promise<boolean> {
    this.stopRequested = true;
    // A kill meanwhile ends the process before an answer to `ask`: the wait ends with it.
    await Promise.race([ask(), this.exited]);
    if (await this.waitForExit(graceMs)) return true;
    await this.kill();
    return false;
  }

  /** SIGKILL to its group, and its end awaited (at most 10 s). False when it outlived that. */
  kill(): Promise<boolean> {
    this.stopRequested = true;
    this.signal('SIGKILL');
    return this.waitForExit(KILL_WAIT_MS);
  }

  /** Whether the process is gone within `ms`. */
  waitForExit(ms: number): Promise<boolean> {
    return settlesWithin(this.clock, this.exited, ms, `exit of ${this.pid}`);
  }

  /** Called once, when the process has exited (not after `release`). */
  onExit(listener: (exit: Exit) => void): void {
    void this.exited.then((exit) => {
      if (this.watching) listener(exit);
    });
  }

  /** Stops watching (the service stops; the process runs on, to be adopted next time). */
  release(): void {
    this.watching = false;
    this.poll?.cancel();
    this.child?.removeAllListeners('exit');
    this.resolveExit({ code: null, signal: null });
  }

  private ended(exit: Exit): void {
    this.poll?.cancel();
    this.resolveExit(exit);
  }
}
