import type { Job, JobRunner } from '../jobs/runner.js';
import type { CollectedLine } from './collector.js';

/** How long lines gather before they are written: one statement per server for a burst. */
const GATHER_MS = 200;
/** Past this many lines waiting, reading waits for the database (a bound on memory if it is slow). */
const MAX_WAITING = 10_000;

/**
 * Log lines on their way to the database, gathered for a moment and written in one statement per
 * server. A line is sent to its watchers when it is read; with SQLite a write holds the event loop,
 * and writing each read at once put that write in front of the next line's delivery (bench/log-fanout).
 * What must follow the lines (the saved read position) is done after they are stored, so that a restart
 * never resumes past a line that was not.
 */
export class LineStore {
  private waiting = new Map<number, CollectedLine[]>();
  private after: (() => Promise<void>)[] = [];
  private count = 0;
  private timer: Job | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly jobs: JobRunner,
    private readonly write: (serverId: number, lines: CollectedLine[]) => Promise<void>,
  ) {}

  /** Queues `lines`; resolves at once, or once they are written when too many wait already. */
  async add(serverId: number, lines: CollectedLine[]): Promise<void> {
    const list = this.waiting.get(serverId);
    if (list) list.push(...lines);
    else this.waiting.set(serverId, [...lines]);
    this.count += lines.length;
    if (this.count > MAX_WAITING) return this.flush();
    this.timer ??= this.jobs.after('logs.store', GATHER_MS, () => this.flush());
  }

  /** Runs `task` once every line queued so far is written. */
  afterStored(task: () => Promise<void>): void {
    this.after.push(task);
    this.timer ??= this.jobs.after('logs.store', GATHER_MS, () => this.flush());
  }

  /** Writes what waits now (and what was already being written); resolves when it is done. */
  flush(): Promise<void> {
    this.timer?.cancel();
    this.timer = null;
    const batch = this.waiting;
    const after = this.after;
    this.waiting = new Map();
    this.after = [];
    this.count = 0;
    this.writing = this.writing.then(async () => {
      for (const [serverId, lines] of batch) await this.write(serverId, lines);
      for (const task of after) await task();
    });
    return this.writing;
  }
}
