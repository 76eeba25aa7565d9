import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, JOB_LOG_LINE_LENGTH, JOB_LOG_LINES } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { BackgroundJobRow, JobEnd } from '../db/repositories/background-jobs.js';
import { isoNow, settlesWithin, type Clock } from '../jobs/clock.js';
import type { BackgroundJobSettings } from './settings.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { JobExecutors, JobFailure } from './executors.js';
import { BackgroundJobService, INTERRUPTED } from './service.js';

/** How long a claim holds without renewal, by the database's clock: past it, the sweep of any node fails the job (its node is gone). */
export const LEASE_MS = 60_000;
/** How often a running job's lease is renewed, its progress and log written and its cancel flag read: the throttle. */
const HEARTBEAT_MS = 1_000;
/** How often the node looks for jobs queued for it by another node (one queued here starts at once). */
/** How long a stop waits for an executor to heed its signal before the job is ended all the same. */
const STOP_WAIT_MS = 10_000;

/** What a run reported and has not been written yet. */
interface Running {
  row: BackgroundJobRow;
  controller: AbortController;
  progress: number;
  log: string[];
  dirty: boolean;
  /** Why the signal aborted: a cancel, or the service stopping. */
  why: 'cancel' | 'stop' | null;
  done: Promise<void>;
}

/**
 * The node's worker: one job at a time, the oldest queued for this node of a kind it can run. While a job
 * runs a heartbeat job renews its lease and writes what it reported (at most once a HEARTBEAT_MS, however
 * chatty the job), and reads whether a cancel was asked for anywhere in the cluster. At start it fails the
 * jobs it left running; at stop it aborts the one under way, which ends failed JOB_INTERRUPTED.
 */
@injectable()
export class BackgroundJobWorker implements Lifecycle {
  private poll: Job | null = null;
  private unlisten: (() => void) | null = null;
  private current: Running | null = null;
  private stopping = false;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(JobExecutors) private readonly executors: JobExecutors,
    @inject(BackgroundJobService) private readonly service: BackgroundJobService,
    @inject(TOKENS.Settings) private readonly settings: BackgroundJobSettings,
  ) {}

  async start(): Promise<void> {
    const failed = await this.service.failOwnRunning();
    if (failed) this.logger.warn({ jobs: failed }, 'background jobs left running by the last stop failed (JOB_INTERRUPTED)');
    this.unlisten = this.service.listen(
      (nodeId) => void (nodeId === this.nodeId && this.poll?.runNow()),
      (jobId) => this.abort(jobId, 'cancel'),
    );
    // Not at once: the features that register executors start after this module.
    const everyMs = this.settings.backgroundJobPollMs;
    this.poll = this.jobs.every({ name: 'background-jobs.worker', everyMs, startNow: false, run: () => this.drain() });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unlisten?.();
    this.poll?.cancel();
    const running = this.current;
    if (!running) return;
    this.abort(running.row.id, 'stop');
    if (!(await settlesWithin(this.clock, running.done, STOP_WAIT_MS, 'background job to stop')))
      this.logger.warn({ job: running.row.id, kind: running.row.kind }, 'a background job did not heed the stop; ended all the same');
  }

  /** Runs this node's queued jobs, oldest first, one at a time, until none is left. */
  private async drain(): Promise<void> {
    while (!this.stopping) {
      const next = await this.repos.backgroundJobs.oldestQueued(this.nodeId, this.executors.kinds());
      if (!next) return;
      if (await this.service.claim(next, LEASE_MS)) await this.run({ ...next, status: 'running' });
    }
  }

  private abort(jobId: number, why: 'cancel' | 'stop'): void {
    const running = this.current;
    if (running?.row.id !== jobId || running.why) return;
    running.why = why;
    running.controller.abort(new Error(why === 'cancel' ? 'the job was cancelled' : INTERRUPTED.message));
  }

  private async run(row: BackgroundJobRow): Promise<void> {
    let finished!: () => void;
    const running: Running = {
      row,
      controller: new AbortController(),
      progress: 0,
      log: [],
      dirty: false,
      why: null,
      done: new Promise((resolve) => (finished = resolve)),
    };
    this.current = running;
    const heartbeat = this.jobs.every({
      name: `background-jobs.heartbeat:${row.id}`,
      everyMs: HEARTBEAT_MS,
      startNow: false,
      run: () => this.heartbeat(running),
    });
    let end: JobEnd;
    try {
      await this.executors.get(row.kind)!.execute({
        jobId: row.id,
        serverId: row.server_id,
        payload: row.payload,
        signal: running.controller.signal,
        progress: (fraction) => {
          running.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
          running.dirty = true;
        },
        log: (line) => {
          for (const one of String(line).split(/\r?\n/)) running.log.push(one.slice(0, JOB_LOG_LINE_LENGTH));
          running.log.splice(0, Math.max(0, running.log.length - JOB_LOG_LINES));
          running.dirty = true;
        },
      });
      end = running.why ? this.aborted(running) : { status: 'done', finished_at: isoNow(this.clock) };
    } catch (err) {
      end = running.why ? this.aborted(running) : this.failure(err, running.row);
    } finally {
      heartbeat.cancel();
    }
    try {
      const progress = end.status === 'done' ? 1 : running.progress;
      await this.service.end(row, 'running', { ...end, progress, log: running.log });
    } catch (err) {
      // The lease runs out and the sweep fails it: never "running" for ever.
      this.logger.error({ err, job: row.id }, 'the end of a background job was not written; the sweep will fail it');
    } finally {
      this.current = null;
      finished();
    }
  }

  /** Renews the lease with what was reported since the last one; aborts the job when a cancel was asked for. */
  private async heartbeat(running: Running): Promise<void> {
    const dirty = running.dirty;
    running.dirty = false;
    const report = dirty ? { progress: running.progress, log: [...running.log] } : {};
    const state = await this.repos.backgroundJobs.heartbeat(running.row.id, LEASE_MS, report);
    if (state === null) {
      // Ended by someone else (the sweep, after this node stalled past its lease): nothing it does counts now.
      this.logger.warn({ job: running.row.id }, 'a background job was ended while it ran here; aborting it');
      return this.abort(running.row.id, 'stop');
    }
    if (dirty) this.service.tell({ ...running.row, progress: running.progress });
    if (state.cancel) this.abort(running.row.id, 'cancel');
  }

  private aborted(running: Running): JobEnd {
    return running.why === 'cancel' ? { status: 'cancelled', finished_at: isoNow(this.clock) } : this.service.interrupted();
  }

  private failure(err: unknown, row: BackgroundJobRow): JobEnd {
    const named = err instanceof JobFailure || err instanceof ApiError;
    if (!named) this.logger.warn({ err, job: row.id, kind: row.kind }, 'a background job failed');
    return {
      status: 'failed',
      error_code: named ? err.code : 'JOB_FAILED',
      error_message: (err instanceof Error ? err.message : String(err)).slice(0, 1000),
      finished_at: isoNow(this.clock),
    };
  }
}
