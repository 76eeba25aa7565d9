import type { Knex } from 'knex';
import { shiftCron } from '../../schedules/cron-shift.js';

interface Row {
  id: number;
  cron: string;
  next_slot_at: string | null;
  next_run_at: string | null;
}
interface Step {
  id: number;
  at_s: number;
  action: string;
}

/** The steps whose time a schedule is about: its first restart, stop or start. */
const ACTIONS = new Set(['restart', 'stop', 'start']);
const later = (iso: string | null, s: number) => (iso === null ? null : new Date(Date.parse(iso) + s * 1000).toISOString());

/**
 * A schedule's time becomes its action's time. Before, the cron time was the run's start and every step
 * came after it (`0 4 * * *` with warnings at 15, 10, 5 and 1 minutes restarted at 04:15); now steps
 * count from the cron time, those before it with negative offsets (the restart at 04:00, the first
 * warning at -900 s). Each schedule keeps what it does, when it does it: its cron is moved to its first
 * restart, stop or start (`0 4 * * *` becomes `15 4 * * *`) and its steps are moved back as far.
 *
 * A cron that cannot be moved so (an irregular set of minutes, a time moved past midnight on a schedule
 * not run every day, a nickname…) is left as it was, with its steps: positive offsets are after the
 * cron time, which is what they always meant, so that schedule too runs as before (its restart shows as
 * "15 min after" the cron time). Nothing else differs, and no flag is kept. One difference in kind: the
 * cron now gives the restart's wall-clock time, where the restart was before a fixed number of seconds
 * after the cron time; they differ only when a change of the clocks falls between the two.
 */
export async function up(knex: Knex): Promise<void> {
  const rows: Row[] = await knex('schedules').select('id', 'cron', 'next_slot_at', 'next_run_at');
  for (const row of rows) {
    const steps: Step[] = await knex('schedule_steps').where({ schedule_id: row.id }).select('id', 'at_s', 'action').orderBy('idx');
    const anchor = [...steps].sort((a, b) => a.at_s - b.at_s).find((s) => ACTIONS.has(s.action));
    const shift = anchor?.at_s ?? 0;
    if (shift <= 0) continue;
    const cron = shiftCron(row.cron, shift);
    if (cron === null) continue;
    // The run is due at its earliest step, which has not moved: only when its first step came after the
    // cron time does the stored due time move (to that step, at most as far as the cron did).
    const lead = Math.max(0, ...steps.map((s) => shift - s.at_s));
    await knex('schedules')
      .where({ id: row.id })
      .update({ cron, next_slot_at: later(row.next_slot_at, shift), next_run_at: later(row.next_run_at, shift - lead) });
    for (const step of steps)
      await knex('schedule_steps')
        .where({ id: step.id })
        .update({ at_s: step.at_s - shift });
  }
}

/** Back to the old reading: a schedule with steps before its time has its cron moved to its first step. */
export async function down(knex: Knex): Promise<void> {
  const rows: Row[] = await knex('schedules').select('id', 'cron', 'next_slot_at', 'next_run_at');
  for (const row of rows) {
    const steps: Step[] = await knex('schedule_steps').where({ schedule_id: row.id }).select('id', 'at_s', 'action');
    const lead = Math.max(0, ...steps.map((s) => -s.at_s));
    const cron = lead > 0 ? shiftCron(row.cron, -lead) : null;
    if (cron === null) continue;
    await knex('schedules')
      .where({ id: row.id })
      .update({ cron, next_slot_at: later(row.next_slot_at, -lead) });
    for (const step of steps)
      await knex('schedule_steps')
        .where({ id: step.id })
        .update({ at_s: step.at_s + lead });
  }
}
