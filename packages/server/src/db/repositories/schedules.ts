import type { Knex } from 'knex';
import type { ScheduleConditions, ScheduleStep, StepResult } from '@garrison/core';

export interface ScheduleRow {
  id: number;
  server_id: number;
  name: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  misfire_late_s: number | null;
  jitter_s: number;
  overlap: 'skip' | 'queue';
  conditions: ScheduleConditions;
  next_slot_at: string | null;
  next_run_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface StepRow {
  schedule_id: number;
  idx: number;
  at_s: number;
  action: ScheduleStep['action'];
  payload: NonNullable<ScheduleStep['payload']>;
  continue_on_failure: boolean;
}

export interface RunRow {
  id: number;
  schedule_id: number;
  due_at: string;
  trigger: 'schedule' | 'manual';
  node_id: string | null;
  lease_until: string | null;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped';
  reason: string | null;
  started_at: string | null;
  finished_at: string | null;
  steps: StepResult[];
}

type ScheduleFields = Omit<ScheduleRow, 'id'>;
type NewRun = Omit<RunRow, 'id'>;
type NewStep = Omit<StepRow, 'schedule_id'>;
type Stored = Record<string, unknown>;

// The rows as stored: lists and objects as JSON text, flags as 0/1 (both databases hand them back so).
const toSchedule = (row: Stored): ScheduleRow => ({
  ...(row as unknown as ScheduleRow),
  enabled: Boolean(row.enabled),
  conditions: JSON.parse(row.conditions as string) as ScheduleConditions,
});
const toStep = (row: Stored): StepRow => ({
  ...(row as unknown as StepRow),
  payload: JSON.parse(row.payload as string) as StepRow['payload'],
  continue_on_failure: Boolean(row.continue_on_failure),
});
const toRun = (row: Stored): RunRow => ({ ...(row as unknown as RunRow), steps: JSON.parse(row.steps as string) as StepResult[] });
const storedSchedule = (fields: Partial<ScheduleFields>): Stored =>
  fields.conditions === undefined ? { ...fields } : { ...fields, conditions: JSON.stringify(fields.conditions) };
const storedSteps = (scheduleId: number, steps: NewStep[]): Stored[] =>
  steps.map((s) => ({ ...s, payload: JSON.stringify(s.payload), schedule_id: scheduleId }));
const storedRun = (run: Partial<NewRun>): Stored => (run.steps === undefined ? { ...run } : { ...run, steps: JSON.stringify(run.steps) });

const isUniqueViolation = (err: unknown) =>
  /UNIQUE constraint failed|ER_DUP_ENTRY|Duplicate entry/i.test(String((err as Error).message ?? err));

/** Schedules, their steps and their runs. */
export class ScheduleRepository {
  constructor(private readonly knex: Knex) {}

  /** `outer`: the transaction of the whole change (with its audit entry). */
  async create(fields: ScheduleFields, steps: NewStep[], outer?: Knex.Transaction): Promise<number> {
    return (outer ?? this.knex).transaction(async (trx) => {
      const [id] = await trx('schedules').insert(storedSchedule(fields));
      if (steps.length) await trx('schedule_steps').insert(storedSteps(id, steps));
      return id;
    });
  }

  async update(id: number, fields: Partial<ScheduleFields>, steps?: NewStep[], outer?: Knex.Transaction): Promise<void> {
    await (outer ?? this.knex).transaction(async (trx) => {
      if (Object.keys(fields).length) await trx('schedules').where({ id }).update(storedSchedule(fields));
      if (steps) {
        await trx('schedule_steps').where({ schedule_id: id }).delete();
        if (steps.length) await trx('schedule_steps').insert(storedSteps(id, steps));
      }
    });
  }

  async find(serverId: number, id: number): Promise<ScheduleRow | undefined> {
    const row = await this.knex('schedules').where({ id, server_id: serverId }).first();
    return row ? toSchedule(row) : undefined;
  }

  async byId(id: number): Promise<ScheduleRow | undefined> {
    const row = await this.knex('schedules').where({ id }).first();
    return row ? toSchedule(row) : undefined;
  }

  async forServer(serverId: number): Promise<ScheduleRow[]> {
    return (await this.knex('schedules').where({ server_id: serverId }).orderBy('id')).map(toSchedule);
  }

  async delete(serverId: number, id: number, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('schedules').where({ id, server_id: serverId }).delete()) > 0;
  }

  async steps(scheduleIds: number[]): Promise<StepRow[]> {
    if (!scheduleIds.length) return [];
    return (
      await this.knex('schedule_steps')
        .whereIn('schedule_id', scheduleIds)
        .orderBy([{ column: 'schedule_id' }, { column: 'idx' }])
    ).map(toStep);
  }

  private ofNode(nodeId: string) {
    return this.knex('servers').select('id').where('node_id', nodeId);
  }

  /** Enabled schedules of a node's servers whose run is due by `now`, the most overdue first. */
  async due(now: string, limit: number, nodeId: string): Promise<ScheduleRow[]> {
    return (
      await this.knex('schedules')
        .whereIn('server_id', this.ofNode(nodeId))
        .where('enabled', true)
        .whereNotNull('next_run_at')
        .andWhere('next_run_at', '<=', now)
        .orderBy('next_run_at')
        .limit(limit)
    ).map(toSchedule);
  }

  /**
   * Claims the run due at `run.due_at`: its row inserted (unique per schedule and due time) and the
   * schedule moved on to its next time only if it still says this one. Null when another instance
   * claimed it first.
   */
  async claim(
    run: NewRun,
    next: { next_slot_at: string | null; next_run_at: string | null; updated_at: string },
    expected: string | null,
  ): Promise<number | null> {
    try {
      return await this.knex.transaction(async (trx) => {
        const moved = await trx('schedules')
          .where({ id: run.schedule_id })
          .andWhere((q) => {
            if (expected === null) q.whereNull('next_run_at');
            else q.where('next_run_at', expected);
          })
          .update(next);
        if (!moved) throw new LostClaim();
        const [id] = await trx('schedule_runs').insert(storedRun(run));
        return id;
      });
    } catch (err) {
      if (err instanceof LostClaim || isUniqueViolation(err)) return null;
      throw err;
    }
  }

  /** A run of a person's ("run now"), with a due time of its own. Null when one with that time exists. */
  async insertRun(run: NewRun): Promise<number | null> {
    try {
      const [id] = await this.knex('schedule_runs').insert(storedRun(run));
      return id;
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async run(id: number): Promise<RunRow | undefined> {
    const row = await this.knex('schedule_runs').where({ id }).first();
    return row ? toRun(row) : undefined;
  }

  async updateRun(id: number, patch: Partial<NewRun>, owner?: string, trx?: Knex.Transaction): Promise<boolean> {
    const q = (trx ?? this.knex)('schedule_runs').where({ id });
    if (owner) q.andWhere('node_id', owner);
    return (await q.update(storedRun(patch))) > 0;
  }

  /** Takes over a run whose lease ran out (its instance stopped or died): only one instance gets it. */
  async takeOver(id: number, expiredLease: string, owner: string, leaseUntil: string): Promise<boolean> {
    return (
      (await this.knex('schedule_runs')
        .where({ id, lease_until: expiredLease })
        .whereIn('status', ['running', 'queued'])
        .update({ node_id: owner, lease_until: leaseUntil })) > 0
    );
  }

  /** Runs of a node's servers under way or waiting whose lease ran out by `now`. */
  async abandoned(now: string, limit: number, nodeId: string): Promise<RunRow[]> {
    const rows = await this.knex('schedule_runs')
      .whereIn('schedule_id', this.knex('schedules').select('id').whereIn('server_id', this.ofNode(nodeId)))
      .whereIn('status', ['running', 'queued'])
      .andWhere('lease_until', '<', now)
      .orderBy('id')
      .limit(limit);
    return rows.map(toRun);
  }

  /**
   * Whether an earlier run of the schedule is running or waiting: runs take their turns in the order
   * they were claimed, so two waiting runs never start together, and of two claimed at once the later yields.
   */
  async hasEarlierUnfinished(scheduleId: number, runId: number): Promise<boolean> {
    return Boolean(
      await this.knex('schedule_runs')
        .where({ schedule_id: scheduleId })
        .whereIn('status', ['running', 'queued'])
        .andWhere('id', '<', runId)
        .first('id'),
    );
  }

  async runs(scheduleId: number, page: { limit: number; offset: number }): Promise<{ total: number; items: RunRow[] }> {
    const [{ count }] = await this.knex('schedule_runs').where({ schedule_id: scheduleId }).count({ count: '*' });
    const items = await this.knex('schedule_runs')
      .where({ schedule_id: scheduleId })
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset);
    return { total: Number(count), items: items.map(toRun) };
  }
}

class LostClaim extends Error {}
