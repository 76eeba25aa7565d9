import { Cron } from 'croner';
import { ApiError } from '@garrison/core';
import { isoAt } from '../jobs/clock.js';

/**
 * When a schedule's runs fall: croner reads the cron expression in the schedule's time zone and is
 * asked only for times (no timer of croner's ever runs: the job runner polls the stored next run).
 * Across a change of the clocks, a daily time that does not exist that day (02:30 on a spring-forward
 * night) comes just after the gap, and one that happens twice (autumn) comes once.
 */
export interface Calendar {
  cron: string;
  timezone: string;
}

const patternOf = (calendar: Calendar) => new Cron(calendar.cron, { timezone: calendar.timezone, paused: true });

/** Refuses an expression or a time zone croner cannot read, naming the field (400). */
export function assertCalendar(calendar: Calendar): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: calendar.timezone });
  } catch {
    throw new ApiError('VALIDATION_ERROR', `field 'timezone': ${JSON.stringify(calendar.timezone)} is not an IANA time zone (Europe/Berlin, America/New_York, UTC…)`);
  }
  let next: Date | null;
  try {
    next = patternOf(calendar).nextRun();
  } catch (err) {
    throw new ApiError('VALIDATION_ERROR', `field 'cron': ${(err as Error).message.replace(/^CronPattern: /, '')}`);
  }
  if (!next) throw new ApiError('VALIDATION_ERROR', `field 'cron': ${JSON.stringify(calendar.cron)} never runs`);
}

/** The first time strictly after `after`, or null when there is none (or the stored expression no longer reads). */
export function nextTime(calendar: Calendar, after: number): number | null {
  const next = patternOf(calendar).nextRun(new Date(after));
  return next ? next.getTime() : null;
}

/** The next `count` times after `after`. */
export function nextTimes(calendar: Calendar, after: number, count: number): number[] {
  return patternOf(calendar)
    .nextRuns(count, new Date(after))
    .map((d) => d.getTime());
}

/** A schedule's next time after `after`, and that time with its jitter added: when its run is due. */
export function nextSlot(row: Calendar & { jitter_s: number }, after: number, random = Math.random): { next_slot_at: string | null; next_run_at: string | null } {
  const slot = nextTime(row, after);
  if (slot === null) return { next_slot_at: null, next_run_at: null };
  return { next_slot_at: isoAt(slot), next_run_at: isoAt(slot + Math.floor(random() * (row.jitter_s + 1)) * 1000) };
}
