import type { Knex } from 'knex';
import type { JobStatus } from '@garrison/core';
import { DatabaseClock } from '../database-clock.js';

export interface BackgroundJobRow {
  id: number;
  kind: string;
  server_id: number | null;
  node_id: string;
  status: JobStatus;
  progress: number;
  payload: Record<string, unknown>;
  error_code: string | null;
  error_message: string | null;
  log: string[];
  cancel_requested: boolean;
  lease_until: string | null;
  /** By the database's clock: a job still queued then fails JOB_EXPIRED. */
  queued_until: string | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export type NewBackgroundJob = Pick<BackgroundJobRow, 'kind' | 'server_id' | 'node_id' | 'payload' | 'created_by' | 'created_at'>;

/** How a job ended: the outcome written once, by whoever ends it first. */
export interface JobEnd {
  status: 'done' | 'failed' | 'cancelled';
  error_code?: string | null;
  error_message?: string | null;
  finished_at: string;
}

type Stored = Record<string, unknown>;

/** The stored row: the payload and log as JSON text, the flag 0/1 on both databases. */
const toJob = (row: Stored): BackgroundJobRow => ({
  ...(row as unknown as BackgroundJobRow),
  progress: Number(row.progress),
  payload: JSON.parse(row.payload as string),
  log: JSON.parse(row.log as string),
  cancel_requested: Boolean(row.cancel_requested),
});

/**
 * The background_jobs table. Every change of status is guarded on the status it leaves: two ends never both win.
 * A lease (`lease_until`) is written and compared by the database's clock, never a node's: the node that
 * renews it and the node that sweeps it may disagree on the time by any amount.
 */
export class BackgroundJobRepository {
  private readonly clock: DatabaseClock;

  constructor(private readonly knex: Knex) {
    this.clock = new DatabaseClock(knex);
  }

  /** Queued, to run within `queueMs` (by the database's clock) or fail JOB_EXPIRED. */
  async create(job: NewBackgroundJob, queueMs: number, trx?: Knex.Transaction): Promise<number> {
    const [id] = await (trx ?? this.knex)('background_jobs').insert({
      ...job,
      queued_until: this.clock.now(queueMs),
      payload: JSON.stringify(job.payload),
      status: 'queued',
      progress: 0,
      log: '[]',
      cancel_requested: false,
    });
    return id;
  }

  async find(id: number, trx?: Knex.Transaction): Promise<BackgroundJobRow | undefined> {
    const row = await (trx ?? this.knex)('background_jobs').where({ id }).first();
    return row ? toJob(row) : undefined;
  }

  /** The oldest queued job of this node, of a kind it can run: null when none. */
  async oldestQueued(nodeId: string, kinds: readonly string[]): Promise<BackgroundJobRow | null> {
    if (!kinds.length) return null;
    const row = await this.knex('background_jobs')
      .where({ node_id: nodeId, status: 'queued' })
      .whereIn('kind', kinds)
      .orderBy('id')
      .first();
    return row ? toJob(row) : null;
  }

  /** Queued → running under a lease of `leaseMs` from the database's now: false when the job was no longer queued (cancelled meanwhile). */
  async claim(id: number, startedAt: string, leaseMs: number, trx: Knex.Transaction): Promise<boolean> {
    const n = await trx('background_jobs')
      .where({ id, status: 'queued' })
      .update({ status: 'running', started_at: startedAt, lease_until: this.clock.now(leaseMs) });
    return n === 1;
  }

  /**
   * A running job's lease renewed for `leaseMs` from the database's now, with what it reported since (its
   * progress, its log), in one write; answers whether a cancel was asked for (by any node), or null when it no longer runs.
   */
  async heartbeat(id: number, leaseMs: number, report: { progress?: number; log?: string[] }): Promise<{ cancel: boolean } | null> {
    const patch: Stored = { lease_until: this.clock.now(leaseMs) };
    if (report.progress !== undefined) patch.progress = report.progress;
    if (report.log !== undefined) patch.log = JSON.stringify(report.log);
    const n = await this.knex('background_jobs').where({ id, status: 'running' }).update(patch);
    if (n !== 1) return null;
    const row = await this.knex('background_jobs').where({ id }).first('cancel_requested');
    return { cancel: Boolean(row?.cancel_requested) };
  }

  /** Ends a job that is still in `from` (with its last progress and log): false when another end came first. */
  async end(
    id: number,
    from: 'queued' | 'running',
    end: JobEnd & { progress?: number; log?: string[] },
    trx: Knex.Transaction,
    onlyLeaseExpired = false,
  ): Promise<boolean> {
    const { log, ...rest } = end;
    const query = trx('background_jobs').where({ id, status: from });
    if (onlyLeaseExpired) query.where('lease_until', '<', this.clock.now());
    const n = await query.update({ ...rest, lease_until: null, ...(log ? { log: JSON.stringify(log) } : {}) });
    return n === 1;
  }

  /** Marks a running job's cancel as asked for: false when it no longer runs. */
  async requestCancel(id: number, trx: Knex.Transaction): Promise<boolean> {
    return (await trx('background_jobs').where({ id, status: 'running' }).update({ cancel_requested: true })) === 1;
  }

  /** Running jobs whose lease ran out by the database's clock: their node stopped renewing it. */
  async expired(): Promise<BackgroundJobRow[]> {
    return (await this.knex('background_jobs').where({ status: 'running' }).where('lease_until', '<', this.clock.now()).orderBy('id')).map(
      toJob,
    );
  }

  /** Queued jobs past their deadline by the database's clock: no node ran them in time. */
  async expiredQueued(): Promise<BackgroundJobRow[]> {
    return (await this.knex('background_jobs').where({ status: 'queued' }).where('queued_until', '<', this.clock.now()).orderBy('id')).map(
      toJob,
    );
  }

  /** The running jobs of a node: at its start, none of them runs any more. */
  async runningOf(nodeId: string): Promise<BackgroundJobRow[]> {
    return (await this.knex('background_jobs').where({ node_id: nodeId, status: 'running' }).orderBy('id')).map(toJob);
  }

  /** The queued or running jobs of a kind for a server (an install under way keeps a second one and a start out). */
  async activeOf(serverId: number, kind: string): Promise<BackgroundJobRow[]> {
    return (
      await this.knex('background_jobs').where({ server_id: serverId, kind }).whereIn('status', ['queued', 'running']).orderBy('id')
    ).map(toJob);
  }
}
