import { inject, injectable } from 'tsyringe';
import type { Knex } from 'knex';
import { ApiError, SYSTEM_ACTOR, type Actor, type AuditEventType, type Job } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { BackgroundJobRow, JobEnd } from '../db/repositories/background-jobs.js';
import type { EventBus } from '../events/bus.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { AuditService } from '../audit/service.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import type { KeyGrant } from '../auth/principal.js';
import type { BackgroundJobSettings } from './settings.js';

/** What a job's end says went wrong when the node running it stopped. */
export const INTERRUPTED = { code: 'JOB_INTERRUPTED', message: 'the service stopped during the job' } as const;

/** What a queued job's end says when no node ran it before its deadline (GARRISON_JOB_QUEUE_HOURS). */
const EXPIRED_CODE = 'JOB_EXPIRED';

/** Payload keys that smell of a secret: a job's payload is shown and kept, so a password travels some other way. */
const SECRET_KEY = /pass|secret|token|guard|key$/i;

const ENTRY: Record<JobEnd['status'], AuditEventType> = { done: 'job_done', failed: 'job_failed', cancelled: 'job_cancelled' };

/** The API's view of a job. */
function jobView(row: BackgroundJobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    server_id: row.server_id,
    status: row.status,
    progress: row.progress,
    cancel_requested: row.cancel_requested,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    ...(row.error_code ? { error: { code: row.error_code, message: row.error_message ?? '' } } : {}),
    log: row.log,
  };
}

/**
 * Background jobs: queued with their audit entry, claimed and ended with theirs, told as `job_progress`
 * events, a failure told to webhooks (`job.failed`) in the transaction of its entry. The worker
 * (worker.ts) runs them; this decides their states.
 */
@injectable()
export class BackgroundJobService {
  private readonly queuedListeners = new Set<(nodeId: string) => void>();
  private readonly cancelListeners = new Set<(jobId: number) => void>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Settings) private readonly settings: BackgroundJobSettings,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /** Hears of jobs queued here (for the node named), and of cancels asked for here: the worker acts on them at once. */
  listen(onQueued: (nodeId: string) => void, onCancel: (jobId: number) => void): () => void {
    this.queuedListeners.add(onQueued);
    this.cancelListeners.add(onCancel);
    return () => {
      this.queuedListeners.delete(onQueued);
      this.cancelListeners.delete(onCancel);
    };
  }

  /**
   * Queues a job of `kind` for the node that owns `serverId` (this node for a job of no server), with its
   * audit entry in the same transaction. The payload is kept and shown: never a secret in it.
   */
  async enqueue(kind: string, payload: Record<string, unknown>, serverId: number | null, actor: Actor): Promise<Job> {
    const secret = Object.keys(payload).find((key) => SECRET_KEY.test(key));
    if (secret) throw new Error(`the payload of a ${kind} job holds ${secret}: a job's payload is shown, never a secret`);
    const row = await this.audit.inTransaction(async (trx) => {
      const server = serverId === null ? null : await this.repos.servers.find(serverId, trx);
      if (serverId !== null && !server) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
      const id = await this.repos.backgroundJobs.create(
        {
          kind,
          server_id: serverId,
          node_id: server?.node_id ?? this.nodeId,
          payload,
          created_by: actor.kind === 'system' ? null : actor.name.slice(0, 200),
          created_at: isoNow(this.clock),
        },
        this.settings.jobQueueHours * 3_600_000,
        trx,
      );
      await this.entry(trx, 'job_queued', actor, { id, kind, server_id: serverId });
      return (await this.repos.backgroundJobs.find(id, trx))!;
    });
    this.tell(row);
    for (const listener of this.queuedListeners) listener(row.node_id);
    return jobView(row);
  }

  /** A job as `caller` may see it: 404 for an unknown one, and for a job of a server outside a key's servers. */
  async get(id: number, caller?: { key?: KeyGrant }): Promise<Job> {
    return jobView(await this.visible(id, caller));
  }

  /** DELETE /jobs/{id}: a queued job cancelled now; a running one asked to stop (its node ends it); an ended one 409. */
  async cancel(id: number, actor: Actor, caller?: { key?: KeyGrant }): Promise<Job> {
    const job = await this.visible(id, caller);
    if (job.status === 'queued') {
      const ended = await this.end(job, 'queued', { status: 'cancelled', finished_at: isoNow(this.clock) }, actor);
      if (ended) return jobView((await this.repos.backgroundJobs.find(id))!);
    }
    const asked = await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.backgroundJobs.requestCancel(id, trx))) return false;
      await this.entry(trx, 'job_cancel_requested', actor, job);
      return true;
    });
    const now = (await this.repos.backgroundJobs.find(id))!;
    if (!asked) throw new ApiError('CONFLICT', `job ${id} has ended (${now.status}): nothing to cancel`);
    for (const listener of this.cancelListeners) listener(id);
    return jobView(now);
  }

  /** Queued → running on this node, with its entry; false when it was no longer queued. */
  async claim(job: BackgroundJobRow, leaseMs: number): Promise<boolean> {
    const claimed = await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.backgroundJobs.claim(job.id, isoNow(this.clock), leaseMs, trx))) return false;
      await this.entry(trx, 'job_started', SYSTEM_ACTOR, job);
      return true;
    });
    if (claimed) this.tell({ ...job, status: 'running' });
    return claimed;
  }

  /**
   * Ends a job still in `from` with its entry (a failure told to webhooks in the same transaction), then
   * tells it: false when another end came first. `onlyLeaseExpired`: only if its lease ran out by the database's clock (the sweep).
   */
  async end(
    job: BackgroundJobRow,
    from: 'queued' | 'running',
    end: JobEnd & { progress?: number; log?: string[] },
    actor: Actor = SYSTEM_ACTOR,
    onlyLeaseExpired = false,
  ): Promise<boolean> {
    const error = end.status === 'failed' ? { code: end.error_code ?? 'JOB_FAILED', message: end.error_message ?? '' } : null;
    let wake = () => undefined as void;
    const ended = await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.backgroundJobs.end(job.id, from, end, trx, onlyLeaseExpired))) return false;
      await this.entry(trx, ENTRY[end.status], actor, job, error ?? undefined);
      if (error) {
        const server = job.server_id === null ? undefined : await this.repos.servers.facts(job.server_id, trx);
        const data = { server_id: job.server_id, server_name: server?.name ?? null, job_id: job.id, kind: job.kind, ...error };
        wake = await this.outbox.enqueueIn(trx, [{ type: 'job.failed', data }], job.server_id);
      }
      return true;
    });
    if (!ended) return false;
    wake();
    this.tell({ ...job, status: end.status, progress: end.status === 'done' ? 1 : (end.progress ?? job.progress) });
    return true;
  }

  /**
   * The sweep: every running job whose lease ran out by the database's clock is failed, its node having
   * stopped renewing it (this node's clock is not asked: it may be hours off the renewing node's); and
   * every job still queued past its deadline (its node gone for good, or running no job of its kind).
   */
  async failExpired(): Promise<number> {
    let failed = 0;
    for (const job of await this.repos.backgroundJobs.expired())
      if (await this.end(job, 'running', this.interrupted(), SYSTEM_ACTOR, true)) failed += 1;
    for (const job of await this.repos.backgroundJobs.expiredQueued()) if (await this.end(job, 'queued', this.expired(job))) failed += 1;
    return failed;
  }

  /** At start: nothing of this node runs yet, so every job it left running was cut short by its stop. */
  async failOwnRunning(): Promise<number> {
    let failed = 0;
    for (const job of await this.repos.backgroundJobs.runningOf(this.nodeId))
      if (await this.end(job, 'running', this.interrupted())) failed += 1;
    return failed;
  }

  /** A running job's progress, told as it is (the worker throttles). */
  tell(job: Pick<BackgroundJobRow, 'id' | 'server_id' | 'kind' | 'status' | 'progress'>): void {
    const data = { job_id: job.id, server_id: job.server_id, kind: job.kind, status: job.status, progress: job.progress };
    this.events.publish({ type: 'job_progress', server_id: job.server_id ?? 0, data });
  }

  private expired(job: BackgroundJobRow): JobEnd {
    const hours = this.settings.jobQueueHours;
    const message =
      `queued for ${hours} hour${hours === 1 ? '' : 's'} and never started: node ${job.node_id} is gone, or runs no ${job.kind} ` +
      'job; send it again once a node that runs it is up (GARRISON_JOB_QUEUE_HOURS)';
    return { status: 'failed', error_code: EXPIRED_CODE, error_message: message, finished_at: isoNow(this.clock) };
  }

  interrupted(): JobEnd {
    return { status: 'failed', error_code: INTERRUPTED.code, error_message: INTERRUPTED.message, finished_at: isoNow(this.clock) };
  }

  private async visible(id: number, caller?: { key?: KeyGrant }): Promise<BackgroundJobRow> {
    const job = await this.repos.backgroundJobs.find(id);
    const allowed = caller?.key?.server_ids;
    if (!job || (allowed && (job.server_id === null || !allowed.includes(job.server_id)))) throw new ApiError('NOT_FOUND', `no job ${id}`);
    return job;
  }

  private entry(
    trx: Knex.Transaction,
    type: AuditEventType,
    actor: Actor,
    job: Pick<BackgroundJobRow, 'id' | 'kind' | 'server_id'>,
    error?: { code: string; message: string },
  ) {
    return this.audit.record(trx, {
      type,
      actor,
      serverId: job.server_id,
      target: { kind: 'job', id: job.id, name: job.kind },
      detail: { job_id: job.id, kind: job.kind, ...(error ? { error_code: error.code, error_message: error.message } : {}) },
    });
  }
}
