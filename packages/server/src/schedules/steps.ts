import type { ScheduleStep, StepResult } from '@garrison/core';
import type { StepRow } from '../db/repositories/schedules.js';

/** A step as stored, as the API and the runner use it. */
export const stepOf = (row: StepRow): ScheduleStep => ({
  at_s: row.at_s,
  action: row.action,
  payload: row.payload,
  continue_on_failure: row.continue_on_failure,
});

/** Steps as they are stored, in their order. */
export const stepRows = (steps: ScheduleStep[]): Omit<StepRow, 'schedule_id'>[] =>
  steps.map((s, idx) => ({
    idx,
    at_s: s.at_s,
    action: s.action,
    payload: s.payload ?? {},
    continue_on_failure: s.continue_on_failure ?? false,
  }));

/** A run's results before any step has begun. */
export const pendingResults = (steps: ScheduleStep[]): StepResult[] =>
  steps.map((s) => ({ at_s: s.at_s, action: s.action, status: 'pending', at: null, error: null }));

/**
 * How long before the schedule's time its run begins: its earliest step's lead (a warning 15 minutes ahead
 * gives 900), or 0 when no step comes before the schedule's time.
 */
export const leadOf = (steps: Pick<ScheduleStep, 'at_s'>[]): number => Math.max(0, ...steps.map((s) => -s.at_s));
