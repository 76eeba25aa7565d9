import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { SYSTEM_ACTOR, type Actor, type ScheduleStep, type StepResult } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ScheduleSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { RunRow, ScheduleRow } from '../db/repositories/schedules.js';
import type { EventBus } from '../events/bus.js';
import type { JobRunner } from '../jobs/runner.js';
import { isoAt as iso, type Clock } from '../jobs/clock.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { AuditService } from '../audit/service.js';
import { nextSlot } from './calendar.js';
import { leadOf, pendingResults, stepOf } from './steps.js';
import { RunConditions } from './conditions.js';
import { RunContext, RunExecution } from './execution.js';

/** How long a claimed run is this instance's without a renewal; renewed every third of it. */
const LEASE_MS = 60_000;
/** With misfire `skip`: how late a run may still start (a poll or two behind is not a missed run). */
const ON_TIME_MS = 60_000;

/**
 * Runs schedules. One job polls the due rows (never a timer per schedule): each due run is claimed in
 * the database (its unique row, and a compare-and-set of the schedule's next time) with a lease this
 * instance renews while it runs; a run whose lease ran out (its instance died) is taken over and goes on
 * from its first unfinished step, never doing again a step that had begun.
 */
@injectable()
export class ScheduleRunner implements Lifecycle {
  private readonly running = new Map<number, RunExecution>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: ScheduleSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(RunConditions) private readonly conditions: RunConditions,
    @inject(RunContext) private readonly context: RunContext,
  ) {}

  start(): void {
    this.jobs.every({ name: 'schedules.poll', everyMs: this.settings.schedulePollMs, startNow: true, run: () => this.poll() });
    this.jobs.every({ name: 'schedules.lease', everyMs: LEASE_MS / 3, startNow: false, run: () => this.renewLeases() });
  }

  /** Runs under way stop where they are; their leases run out and the next instance to look goes on with them. */
  async stop(): Promise<void> {
    const runs = [...this.running.values()];
    for (const run of runs) run.abort();
    await Promise.allSettled(runs.map((r) => r.done));
  }

  async poll(): Promise<void> {
    const now = this.clock.now();
    for (const row of await this.repos.schedules.due(iso(now), 50, this.nodeId))
      await this.claimDue(row, now).catch((err) => this.logger.error({ err, scheduleId: row.id }, 'schedule poll failed'));
    for (const run of await this.repos.schedules.abandoned(iso(now), 20, this.nodeId)) {
      // A run of this instance's own whose renewal fell behind (a slow database) is still running here: its lease is renewed, never taken
      // over twice.
      if (this.running.has(run.id)) await this.repos.schedules.updateRun(run.id, { lease_until: iso(now + LEASE_MS) }, this.nodeId);
      else await this.takeOver(run, now).catch((err) => this.logger.error({ err, runId: run.id }, 'taking over a run failed'));
    }
  }

  /** A person's "run now": the steps at once, whatever the conditions. */
  async startManual(schedule: ScheduleRow, actor: Actor): Promise<number> {
    const steps = await this.stepsOf(schedule.id);
    for (let shift = 0; ; shift++) {
      const now = this.clock.now();
      const id = await this.repos.schedules.insertRun({
        ...this.newRun(schedule.id, iso(now + shift), 'manual', now),
        status: 'running',
        steps: pendingResults(steps),
      });
      if (id !== null) {
        this.execute(id, schedule, steps, actor, { conditions: false, startedAt: null });
        return id;
      }
    }
  }

  private async claimDue(row: ScheduleRow, now: number): Promise<void> {
    const steps = await this.stepsOf(row.id);
    const lead = leadOf(steps);
    let next: ReturnType<typeof nextSlot>;
    try {
      // The next time after this one whose run (beginning `lead` before it) has not begun by now.
      next = nextSlot(row, Math.max(now, Date.parse(row.next_slot_at ?? row.next_run_at!) - lead * 1000), lead);
    } catch (err) {
      // A stored expression that no longer reads (a croner upgrade, a hand-edited row): this schedule stops, not the service.
      const reason = `its cron expression cannot be read: ${(err as Error).message}`;
      await this.audit.inTransaction(async (trx) => {
        await this.repos.schedules.update(
          row.id,
          { enabled: false, disabled_reason: reason, next_run_at: null, next_slot_at: null, updated_at: iso(now) },
          undefined,
          trx,
        );
        const target = { kind: 'schedule' as const, id: row.id, name: row.name };
        await this.audit.record(trx, {
          serverId: row.server_id,
          type: 'schedule_disabled',
          actor: SYSTEM_ACTOR,
          target,
          detail: { schedule_id: row.id, reason },
        });
      });
      return;
    }
    const late = now - Date.parse(row.next_run_at!);
    const allowed = row.misfire_late_s === null ? ON_TIME_MS : row.misfire_late_s * 1000;
    const missed =
      late > allowed
        ? `late by ${Math.round(late / 1000)} s (the service was not running at its time); misfire ` +
          `policy ${row.misfire_late_s === null ? 'skip' : `run if late by at most ${row.misfire_late_s} s`}`
        : null;
    const run = {
      ...this.newRun(row.id, row.next_run_at!, 'schedule', now),
      status: missed ? ('skipped' as const) : ('running' as const),
      reason: missed,
      finished_at: missed ? iso(now) : null,
      steps: pendingResults(steps),
    };
    const id = await this.repos.schedules.claim(run, { ...next, updated_at: iso(now) }, row.next_run_at);
    if (id === null) return; // another instance claimed it
    if (missed) return void this.publish(row, id, 'skipped', 'skipped', missed);
    this.execute(id, row, steps, scheduleActor(row), { conditions: true, startedAt: null });
  }

  private async takeOver(run: RunRow, now: number): Promise<void> {
    if (!(await this.repos.schedules.takeOver(run.id, run.lease_until!, this.nodeId, iso(now + LEASE_MS)))) return;
    const schedule = await this.repos.schedules.byId(run.schedule_id);
    if (!schedule) return;
    this.logger.info({ runId: run.id, scheduleId: schedule.id, from: run.node_id }, 'taking over a schedule run whose lease ran out');
    const steps = await this.stepsOf(schedule.id);
    this.execute(run.id, schedule, steps, scheduleActor(schedule), {
      conditions: run.status === 'queued',
      startedAt: run.started_at,
      results: run.steps,
    });
  }

  private execute(
    runId: number,
    schedule: ScheduleRow,
    steps: ScheduleStep[],
    actor: Actor,
    options: { conditions: boolean; startedAt: string | null; results?: StepResult[] },
  ): void {
    const execution = new RunExecution(runId, schedule, steps, actor, options, this.context, {
      conditions: this.conditions,
      publish: (phase, status, reason, step) => this.publish(schedule, runId, phase, status, reason, step),
    });
    this.running.set(runId, execution);
    void execution.done.finally(() => this.running.delete(runId));
  }

  private async renewLeases(): Promise<void> {
    const until = iso(this.clock.now() + LEASE_MS);
    for (const [id, execution] of this.running) {
      if (!(await this.repos.schedules.updateRun(id, { lease_until: until }, this.nodeId))) execution.abort(); // taken over meanwhile
    }
  }

  private async stepsOf(scheduleId: number): Promise<ScheduleStep[]> {
    return (await this.repos.schedules.steps([scheduleId])).map(stepOf);
  }

  private newRun(scheduleId: number, dueAt: string, trigger: 'schedule' | 'manual', now: number) {
    return {
      schedule_id: scheduleId,
      due_at: dueAt,
      trigger,
      node_id: this.nodeId,
      lease_until: iso(now + LEASE_MS),
      reason: null,
      started_at: null,
      finished_at: null,
    };
  }

  private publish(
    schedule: ScheduleRow,
    runId: number,
    phase: 'started' | 'step' | 'finished' | 'skipped',
    status: string,
    reason: string | null,
    step?: StepResult,
  ): void {
    this.events.publish({
      type: 'schedule_run',
      server_id: schedule.server_id,
      data: { schedule_id: schedule.id, run_id: runId, phase, status, reason, ...(step ? { step } : {}) },
    });
  }
}

const scheduleActor = (row: Pick<ScheduleRow, 'id' | 'name'>): Actor => ({ kind: 'schedule', id: String(row.id), name: row.name });
