import type { Logger } from 'pino';
import type { Clock, Timer } from './clock.js';

export interface JobSpec {
  /** Unique while the job lives: `bans.pass`, `players.poll:12`. */
  name: string;
  /** Time from the end of one run to the start of the next. */
  everyMs: number;
  /** Up to this much is added to each wait, at random, so that many jobs of one interval spread out. */
  jitterMs?: number;
  /** The first run at once (default), or after the first interval. */
  startNow?: boolean;
  run: () => Promise<void>;
}

export interface Job {
  readonly name: string;
  /** Runs now, or right after the run under way; the next one comes an interval after it. */
  runNow(): Promise<void>;
  /** No run after this; one under way finishes. */
  cancel(): void;
}

export interface FinishedRun {
  name: string;
  durationMs: number;
  failed: boolean;
}

export interface JobStatus {
  name: string;
  every_ms: number | null;
  runs: number;
  running: boolean;
  last_started_at: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_run_at: string | null;
}

interface Entry {
  spec: JobSpec;
  name: string;
  everyMs: number | null;
  timer: Timer | null;
  nextAt: number | null;
  running: Promise<void> | null;
  /** A run asked for while one was under way: it follows that one at once. */
  again: Promise<void> | null;
  cancelled: boolean;
  runs: number;
  lastStartedAt: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
}

/**
 * The one place where periodic and delayed work runs. A job never overlaps itself (its next run is
 * planned from the end of the last), its failures are logged and kept for `status()`, and `stop()`
 * ends every job and waits for the runs under way. Time comes from the clock, so tests move it on.
 */
export class JobRunner {
  private readonly jobs = new Map<string, Entry>();
  private stopped = false;
  /** Every run under way, a cancelled job's too: stop() waits for all of them. */
  private readonly runs = new Set<Promise<void>>();
  private readonly finishedListeners = new Set<(run: FinishedRun) => void>();

  constructor(
    readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Runs `spec.run` every `everyMs` until cancelled or stopped. */
  every(spec: JobSpec): Job {
    const entry = this.add(spec.name, spec, spec.everyMs);
    if (spec.startNow ?? true) void this.runEntry(entry);
    else this.plan(entry, spec.everyMs);
    return this.handle(entry);
  }

  /** Runs `run` once, after `ms` (a back-off, a deadline). */
  after(name: string, ms: number, run: () => Promise<void>): Job {
    const entry = this.add(name, { name, everyMs: 0, run }, null);
    this.plan(entry, ms);
    return this.handle(entry);
  }

  /** Cancels the job of that name, if there is one. */
  cancel(name: string): void {
    const entry = this.jobs.get(name);
    if (entry) this.cancelEntry(entry);
  }

  /** Cancels every job whose name starts with `prefix` (`headless.restart:3:`): no registry of its own needed. */
  cancelAll(prefix: string): void {
    for (const entry of [...this.jobs.values()]) if (entry.name.startsWith(prefix)) this.cancelEntry(entry);
  }

  /** Hears of every run as it ends (for the metrics' job counts). */
  onFinished(listener: (run: FinishedRun) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  status(): JobStatus[] {
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return [...this.jobs.values()].map((e) => ({
      name: e.name,
      every_ms: e.everyMs,
      runs: e.runs,
      running: e.running !== null,
      last_started_at: iso(e.lastStartedAt),
      last_duration_ms: e.lastDurationMs,
      last_error: e.lastError,
      next_run_at: iso(e.nextAt),
    }));
  }

  /** Ends every job: no new run starts, and the runs under way are awaited. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const entry of this.jobs.values()) this.cancelEntry(entry);
    await Promise.all([...this.runs]);
  }

  private add(name: string, spec: JobSpec, everyMs: number | null): Entry {
    if (this.stopped) throw new Error(`job ${name} added after the job runner stopped`);
    const old = this.jobs.get(name);
    if (old) this.cancelEntry(old);
    const entry: Entry = {
      spec,
      name,
      everyMs,
      timer: null,
      nextAt: null,
      running: null,
      again: null,
      cancelled: false,
      runs: 0,
      lastStartedAt: null,
      lastDurationMs: null,
      lastError: null,
    };
    this.jobs.set(name, entry);
    return entry;
  }

  private handle(entry: Entry): Job {
    return {
      name: entry.name,
      runNow: () => (entry.running ? (entry.again ??= entry.running.then(() => this.runEntry(entry))) : this.runEntry(entry)),
      cancel: () => this.cancelEntry(entry),
    };
  }

  private cancelEntry(entry: Entry): void {
    entry.cancelled = true;
    entry.timer?.cancel();
    entry.timer = null;
    entry.nextAt = null;
    if (this.jobs.get(entry.name) === entry) this.jobs.delete(entry.name);
  }

  private plan(entry: Entry, ms: number): void {
    if (entry.cancelled || this.stopped) return;
    const wait = ms + Math.floor(Math.random() * ((entry.spec?.jitterMs ?? 0) + 1));
    entry.timer?.cancel();
    entry.nextAt = this.clock.now() + wait;
    entry.timer = this.clock.setTimeout(() => void this.runEntry(entry), wait, entry.name);
  }

  private runEntry(entry: Entry): Promise<void> {
    if (entry.running || entry.cancelled || this.stopped) return entry.running ?? Promise.resolve();
    entry.again = null;
    entry.timer?.cancel();
    entry.timer = null;
    entry.nextAt = null;
    const started = this.clock.now();
    entry.lastStartedAt = started;
    entry.runs += 1;
    const spec = entry.spec;
    entry.running = (async () => {
      try {
        await spec.run();
        entry.lastError = null;
      } catch (err) {
        entry.lastError = (err as Error).message;
        this.logger.warn({ job: entry.name, err: (err as Error).message }, 'job failed');
      } finally {
        entry.lastDurationMs = this.clock.now() - started;
        entry.running = null;
        for (const listener of this.finishedListeners)
          listener({ name: entry.name, durationMs: entry.lastDurationMs, failed: entry.lastError !== null });
        if (entry.everyMs !== null) this.plan(entry, entry.everyMs);
        else this.cancelEntry(entry);
      }
    })();
    const run = entry.running;
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
    return run;
  }
}
