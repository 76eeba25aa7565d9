import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  type Actor,
  type CreateScheduleRequest,
  type Schedule,
  type ScheduleRun,
  type ScheduleStep,
  type UpdateScheduleRequest,
  expectOnly,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ScheduleSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { RunRow, ScheduleRow, StepRow } from '../db/repositories/schedules.js';
import { isoAt, isoNow, type Clock } from '../jobs/clock.js';
import { ServerService } from '../servers/service.js';
import { AuditService } from '../audit/service.js';
import { assertCalendar, nextSlot, nextTimes, UnreadableCalendar } from './calendar.js';
import { expandTemplate } from './template.js';
import { stepProblem } from './actions.js';
import { ScheduleActionRegistry } from './action-registry.js';
import { leadOf, stepOf, stepRows } from './steps.js';
import { ScheduleRunner } from './runner.js';

function toSchedule(row: ScheduleRow, steps: StepRow[], now: number): Schedule {
  let next: string[] = [];
  try {
    next = row.enabled ? nextTimes(row, now, 5).map(isoAt) : [];
  } catch (err) {
    expectOnly(err, UnreadableCalendar); // an expression that no longer reads: the runner disables it
  }
  const lead = leadOf(steps);
  return {
    id: row.id,
    server_id: row.server_id,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled,
    misfire: row.misfire_late_s === null ? 'skip' : { run_if_late_by_s: row.misfire_late_s },
    jitter_s: row.jitter_s,
    overlap: row.overlap,
    conditions: row.conditions,
    steps: steps.map(stepOf),
    // Stored: when the run is due (its first step); answered: the schedule's time, as `next_runs` are.
    next_run_at: row.enabled && row.next_run_at ? isoAt(Date.parse(row.next_run_at) + lead * 1000) : null,
    next_runs: next,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toRun(row: RunRow): ScheduleRun {
  return {
    id: row.id,
    schedule_id: row.schedule_id,
    due_at: row.due_at,
    trigger: row.trigger,
    started_at: row.started_at,
    finished_at: row.finished_at,
    status: row.status,
    reason: row.reason,
    steps: row.steps,
  };
}

/** A server's schedules: written with their steps checked against the game, read with their next runs. */
@injectable()
export class ScheduleService {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: ScheduleSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(ScheduleRunner) private readonly runner: ScheduleRunner,
    @inject(ScheduleActionRegistry) private readonly actions: ScheduleActionRegistry,
  ) {}

  async list(serverId: number): Promise<Schedule[]> {
    await this.servers.row(serverId);
    const rows = await this.repos.schedules.forServer(serverId);
    const steps = await this.repos.schedules.steps(rows.map((r) => r.id));
    return rows.map((row) =>
      toSchedule(
        row,
        steps.filter((s) => s.schedule_id === row.id),
        this.clock.now(),
      ),
    );
  }

  async get(serverId: number, id: number): Promise<Schedule> {
    const row = await this.row(serverId, id);
    return toSchedule(row, await this.repos.schedules.steps([id]), this.clock.now());
  }

  async create(serverId: number, input: CreateScheduleRequest, actor: Actor): Promise<Schedule> {
    const steps = await this.checkedSteps(serverId, input);
    const fields = this.fields(input, null);
    const now = isoNow(this.clock);
    const id = await this.audit.inTransaction(async (trx) => {
      const made = await this.repos.schedules.create(
        {
          server_id: serverId,
          ...fields,
          ...nextSlot(fields, this.clock.now(), leadOf(steps)),
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        },
        stepRows(steps),
        trx,
      );
      const target = { kind: 'schedule' as const, id: made, name: fields.name };
      await this.audit.record(trx, {
        serverId,
        type: 'schedule_created',
        actor,
        target,
        detail: { schedule_id: made, name: fields.name, cron: fields.cron, timezone: fields.timezone },
      });
      return made;
    });
    return this.get(serverId, id);
  }

  async update(serverId: number, id: number, input: UpdateScheduleRequest, actor: Actor): Promise<Schedule> {
    const row = await this.row(serverId, id);
    const steps = input.steps || input.template ? await this.checkedSteps(serverId, input) : undefined;
    const fields = this.fields(input, row);
    // A change of when it runs, of its steps (they may begin earlier or later), or its enabling counts from
    // now: its next run is the next time whose first step is still ahead.
    const timing =
      ['cron', 'timezone', 'jitter_s', 'enabled'].some((k) => k in input) || steps !== undefined || row.disabled_reason !== null;
    const next = timing ? nextSlot(fields, this.clock.now(), leadOf(steps ?? (await this.repos.schedules.steps([id])).map(stepOf))) : {};
    await this.audit.inTransaction(async (trx) => {
      await this.repos.schedules.update(
        id,
        { ...fields, ...next, ...(timing ? { disabled_reason: null } : {}), updated_at: isoNow(this.clock) },
        steps && stepRows(steps),
        trx,
      );
      const target = { kind: 'schedule' as const, id, name: fields.name };
      await this.audit.record(trx, {
        serverId,
        type: 'schedule_updated',
        actor,
        target,
        detail: { schedule_id: id, fields: Object.keys(input) },
      });
    });
    return this.get(serverId, id);
  }

  async delete(serverId: number, id: number, actor: Actor): Promise<void> {
    const row = await this.row(serverId, id);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.schedules.delete(serverId, id, trx);
      await this.audit.record(trx, {
        serverId,
        type: 'schedule_deleted',
        actor,
        target: { kind: 'schedule', id, name: row.name },
        detail: { schedule_id: id, name: row.name },
      });
    });
  }

  /** Run now: the steps at once, whatever the conditions (a person decided). */
  async runNow(serverId: number, id: number, actor: Actor): Promise<{ run_id: number }> {
    const row = await this.row(serverId, id);
    const runId = await this.runner.startManual(row, actor);
    return { run_id: runId };
  }

  async runs(serverId: number, id: number, page: { limit?: number; offset?: number }): Promise<{ total: number; items: ScheduleRun[] }> {
    await this.row(serverId, id);
    const { total, items } = await this.repos.schedules.runs(id, { limit: page.limit ?? 20, offset: page.offset ?? 0 });
    return { total, items: items.map(toRun) };
  }

  private async row(serverId: number, id: number): Promise<ScheduleRow> {
    await this.servers.row(serverId);
    const row = await this.repos.schedules.find(serverId, id);
    if (!row) throw new ApiError('NOT_FOUND', `server ${serverId} has no schedule ${id}`);
    return row;
  }

  /** The columns a request sets, over what the row has: the calendar checked (400 naming the field). */
  private fields(input: UpdateScheduleRequest, row: ScheduleRow | null) {
    const fields = {
      name: input.name ?? row?.name ?? '',
      cron: input.cron ?? row?.cron ?? '',
      timezone: input.timezone ?? row?.timezone ?? this.settings.scheduleTimezone,
      enabled: input.enabled ?? row?.enabled ?? true,
      misfire_late_s:
        input.misfire === undefined ? (row?.misfire_late_s ?? null) : input.misfire === 'skip' ? null : input.misfire.run_if_late_by_s,
      jitter_s: input.jitter_s ?? row?.jitter_s ?? 0,
      overlap: input.overlap ?? row?.overlap ?? 'skip',
      conditions: input.conditions ?? row?.conditions ?? {},
    };
    if (!fields.name) throw new ApiError('VALIDATION_ERROR', "field 'name' is required");
    if (!fields.cron) throw new ApiError('VALIDATION_ERROR', "field 'cron' is required");
    assertCalendar(fields);
    const c = fields.conditions;
    if (c.players_min !== undefined && c.players_max !== undefined && c.players_min > c.players_max) {
      throw new ApiError('VALIDATION_ERROR', "field 'conditions': players_min is above players_max");
    }
    return fields;
  }

  /** The request's steps (or its template's), each checked against what the server's game can do. */
  private async checkedSteps(serverId: number, input: UpdateScheduleRequest): Promise<ScheduleStep[]> {
    if (input.steps && input.template) throw new ApiError('VALIDATION_ERROR', "give either 'steps' or 'template', not both");
    const steps = input.template ? expandTemplate(input.template) : input.steps;
    if (!steps?.length) throw new ApiError('VALIDATION_ERROR', "field 'steps': a schedule needs steps, or a template");
    const adapter = await this.servers.adapterOf(serverId);
    steps.forEach((step, i) => {
      const problem = stepProblem(step, adapter, i, this.actions);
      if (problem) throw new ApiError('VALIDATION_ERROR', `field '${problem.split(':')[0]}':${problem.slice(problem.indexOf(':') + 1)}`);
    });
    return [...steps].sort((a, b) => a.at_s - b.at_s);
  }
}
