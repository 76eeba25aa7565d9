import { Cron } from 'croner';
import { ApiError, expectOnly } from '@garrison/core';
import { isoAt } from '../jobs/clock.js';

/**
 * When a schedule's runs fall: croner reads the cron expression in the schedule's time zone and is
 * asked only for times (no timer of croner's ever runs: the job runner polls the stored next run).
 * Across a change of the clocks, a daily time that does not exist that day (02:30 on a spring-forward
 * night) comes just after the gap, and one that happens twice (autumn) comes once, at its first
 * occurrence. The times are a schedule's action times; warnings before them are counted back in real
 * time (15 minutes before 03:00 just after a gap is 01:45, the clock's last minutes before it).
 */
export interface Calendar {
  cron: string;
  timezone: string;
}

/** An expression or time zone croner does not read (croner throws Error, TypeError and RangeError alike). */
export class UnreadableCalendar extends Error {}

/** What croner says of `calendar`, its refusal as an UnreadableCalendar (with croner's words). */
function read<T>(calendar: Calendar, ask: (pattern: Cron) => T): T {
  try {
    return ask(new Cron(calendar.cron, { timezone: calendar.timezone, paused: true }));
  } catch (err) {
    throw new UnreadableCalendar((err as Error).message, { cause: err });
  }
}

/** Whether `name` is a time zone this runtime knows (`Europe/Berlin`, `UTC`): what a schedule's zone and the default zone must be. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch (err) {
    expectOnly(err, RangeError);
    return false;
  }
}

/** Refuses an expression or a time zone croner cannot read, naming each field that is wrong (400, each also in `details`). */
export function assertCalendar(calendar: Calendar): void {
  const details: { field: string; message: string }[] = [];
  const zoneOk = isTimeZone(calendar.timezone);
  if (!zoneOk) {
    details.push({
      field: 'timezone',
      message: `${JSON.stringify(calendar.timezone)} is not an IANA time zone (Europe/Berlin, America/New_York, UTC…)`,
    });
  }
  try {
    // With a zone it cannot read, the expression is read in UTC: whether it reads does not depend on the zone.
    const next = read(zoneOk ? calendar : { ...calendar, timezone: 'UTC' }, (pattern) => pattern.nextRun());
    if (!next) details.push({ field: 'cron', message: `${JSON.stringify(calendar.cron)} never runs` });
  } catch (err) {
    expectOnly(err, UnreadableCalendar);
    details.push({ field: 'cron', message: err.message.replace(/^CronPattern: /, '') });
  }
  if (details.length)
    throw new ApiError('VALIDATION_ERROR', details.map((d) => `field '${d.field}': ${d.message}`).join('; '), { extra: { details } });
}

/** The first time strictly after `after`, or null when there is none (or the stored expression no longer reads). */
function nextTime(calendar: Calendar, after: number): number | null {
  const next = read(calendar, (pattern) => pattern.nextRun(new Date(after)));
  return next ? next.getTime() : null;
}

/** The next `count` times after `after`. */
export function nextTimes(calendar: Calendar, after: number, count: number): number[] {
  return read(calendar, (pattern) => pattern.nextRuns(count, new Date(after))).map((d) => d.getTime());
}

/**
 * A schedule's next run after `after`: its time (the first cron time whose run, beginning `leadS` seconds
 * earlier, begins after `after`), and when the run is due: that time with its jitter added, less the lead.
 */
export function nextSlot(
  row: Calendar & { jitter_s: number },
  after: number,
  leadS = 0,
  random = Math.random,
): { next_slot_at: string | null; next_run_at: string | null } {
  const slot = nextTime(row, after + leadS * 1000);
  if (slot === null) return { next_slot_at: null, next_run_at: null };
  return { next_slot_at: isoAt(slot), next_run_at: isoAt(slot - leadS * 1000 + Math.floor(random() * (row.jitter_s + 1)) * 1000) };
}
