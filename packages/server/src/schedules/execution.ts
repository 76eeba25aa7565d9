import type { Knex } from 'knex';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { Actor, ScheduleStep, StepResult } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { RunRow, ScheduleRow } from '../db/repositories/schedules.js';
import { isoAt as iso, type Clock } from '../jobs/clock.js';
import { AuditService } from '../audit/service.js';
import { ScheduleActions } from './actions.js';
import { leadOf, pendingResults } from './steps.js';
import type { RunConditions } from './conditions.js';

/** How often a queued run looks whether the run before it has ended. */
const QUEUE_CHECK_MS = 5_000;

/** What every run uses, built once. */
@injectable()
export class RunContext {
  constructor(
    @inject(TOKENS.Repositories) readonly repos: Repositories,
    @inject(TOKENS.Clock) readonly clock: Clock,
    @inject(TOKENS.NodeId) readonly nodeId: string,
    @inject(TOKENS.Logger) readonly logger: Logger,
    @inject(AuditService) readonly audit: AuditService,
    @inject(ScheduleActions) readonly actions: ScheduleActions,
  ) {}
}

type Phase = 'started' | 'step' | 'finished' | 'skipped';
interface Hooks {
  conditions: RunConditions;
  publish(phase: Phase, status: string, reason: string | null, step?: StepResult): void;
}

class Superseded extends Error {}

/**
 * One run of a schedule on this instance: the overlap rule, the conditions, then each step at its offset
 * from the schedule's time (the run begins at the earliest step, or at that time), its result saved
 * before and after it (a step that had begun when the instance died is never done again by the instance
 * that takes the run over: it is marked interrupted).
 */
export class RunExecution {
  readonly done: Promise<void>;
  private readonly controller = new AbortController();

  constructor(
    private readonly id: number,
    private readonly schedule: ScheduleRow,
    private readonly steps: ScheduleStep[],
    private readonly actor: Actor,
    private readonly options: { conditions: boolean; startedAt: string | null; results?: StepResult[] },
    private readonly ctx: RunContext,
    private readonly hooks: Hooks,
  ) {
    this.done = this.run().catch((err) => {
      if (this.controller.signal.aborted || err instanceof Superseded) return;
      ctx.logger.error({ err, runId: id, scheduleId: schedule.id }, 'schedule run failed');
    });
  }

  abort(): void {
    this.controller.abort();
  }

  private get signal() {
    return this.controller.signal;
  }

  private async save(patch: Partial<Omit<RunRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    if (!(await this.ctx.repos.schedules.updateRun(this.id, patch, this.ctx.nodeId, trx))) throw new Superseded();
  }

  /** The run's outcome and its audit entry in one transaction. */
  private async finish(status: 'succeeded' | 'failed' | 'skipped', reason: string | null, results?: StepResult[]): Promise<void> {
    await this.ctx.audit.inTransaction(async (trx) => {
      await this.save({ status, reason, finished_at: iso(this.ctx.clock.now()), ...(results ? { steps: results } : {}) }, trx);
      const target = { kind: 'schedule' as const, id: this.schedule.id, name: this.schedule.name };
      await this.ctx.audit.record(trx, {
        serverId: this.schedule.server_id,
        type: 'schedule_run',
        actor: this.actor,
        target,
        detail: { schedule_id: this.schedule.id, run_id: this.id, status, reason },
      });
    });
    this.hooks.publish(status === 'skipped' && !results ? 'skipped' : 'finished', status, reason);
  }

  private async run(): Promise<void> {
    const { repos, clock } = this.ctx;
    while (await repos.schedules.hasEarlierUnfinished(this.schedule.id, this.id)) {
      if (this.schedule.overlap !== 'queue') return this.finish('skipped', 'the run before it is still running (overlap: skip)');
      await this.save({ status: 'queued' });
      await clock.sleep(QUEUE_CHECK_MS, this.signal, `schedule.queue:${this.schedule.id}`);
    }
    if (this.options.conditions) {
      const unmet = await this.hooks.conditions.unmet(this.schedule, this.signal);
      if (unmet) return this.finish('skipped', unmet);
    }
    const startedAt = this.options.startedAt ? Date.parse(this.options.startedAt) : clock.now();
    const results: StepResult[] = (this.options.results ?? pendingResults(this.steps)).map((r) =>
      r.status === 'running' ? { ...r, status: 'failed', error: 'interrupted: the instance running it stopped; not done again' } : r,
    );
    await this.save({ status: 'running', started_at: iso(startedAt), steps: results });
    if (!this.options.startedAt) this.hooks.publish('started', 'running', null);

    let failure: string | null = null;
    let aborted: string | null = null;
    // Offsets count from the schedule's time; the run began at its earliest step (or at that time).
    const lead = leadOf(this.steps);
    for (const [i, step] of this.steps.entries()) {
      const result = results[i];
      if (result.status === 'pending') {
        const wait = startedAt + (step.at_s + lead) * 1000 - clock.now();
        if (wait > 0) await clock.sleep(wait, this.signal, `schedule.step:${this.id}:${i}`);
        Object.assign(result, { status: 'running', at: iso(clock.now()) });
        await this.save({ steps: results });
        try {
          const succeeded = this.steps.filter((_, j) => j < i && results[j].status === 'succeeded');
          const outcome = await this.ctx.actions.perform(
            this.schedule.server_id,
            step,
            this.actor,
            this.secondsToRestart(i),
            this.signal,
            succeeded,
          );
          if ('abort' in outcome) aborted = outcome.abort;
          Object.assign(result, { status: 'succeeded' });
        } catch (err) {
          if (this.signal.aborted) throw err; // the service stops: the step stays begun, for whoever takes over
          Object.assign(result, { status: 'failed', error: (err as Error).message.slice(0, 500) });
        }
        await this.save({ steps: results });
        this.hooks.publish('step', 'running', null, result);
      }
      if (result.status === 'failed' && !step.continue_on_failure) failure = `step ${i + 1} (${step.action}) failed: ${result.error}`;
      if (failure || aborted) {
        for (const later of results.slice(i + 1)) if (later.status === 'pending') later.status = 'skipped';
        break;
      }
    }
    await this.finish(aborted ? 'skipped' : failure ? 'failed' : 'succeeded', aborted ?? failure, results);
  }

  /** Seconds from step `i` to the run's restart or stop: what a warning's `{minutes}` counts down to. */
  private secondsToRestart(i: number): number | null {
    const target = this.steps.slice(i).find((s) => s.action === 'restart' || s.action === 'stop');
    return target ? target.at_s - this.steps[i].at_s : null;
  }
}
