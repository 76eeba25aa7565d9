import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '@garrison/core';
import { assertCalendar, nextSlot } from '../src/schedules/calendar.js';
import { shiftCron } from '../src/schedules/cron-shift.js';

/** The due times a poller sees from `from` to `to`, polling every `pollMs`: each claimed once, the next counted from it. */
function dueTimes(cron: string, timezone: string, from: string, to: string, pollMs = 60_000): string[] {
  const row = { cron, timezone, jitter_s: 0 };
  let next = nextSlot(row, Date.parse(from)).next_run_at;
  const seen: string[] = [];
  for (let now = Date.parse(from); now <= Date.parse(to); now += pollMs) {
    while (next && Date.parse(next) <= now) {
      seen.push(next);
      next = nextSlot(row, Math.max(now, Date.parse(next))).next_run_at;
    }
  }
  return seen;
}

const local = (iso: string, timeZone: string) => new Date(iso).toLocaleString('sv-SE', { timeZone });

describe('when schedules run, across changes of the clocks', () => {
  const zones: [zone: string, spring: [string, string], autumn: [string, string]][] = [
    ['Europe/Berlin', ['2026-03-27T12:00:00Z', '2026-03-31T12:00:00Z'], ['2026-10-23T12:00:00Z', '2026-10-27T12:00:00Z']],
    ['America/New_York', ['2026-03-06T12:00:00Z', '2026-03-10T12:00:00Z'], ['2026-10-30T12:00:00Z', '2026-11-03T12:00:00Z']],
    ['Australia/Melbourne', ['2026-10-02T12:00:00Z', '2026-10-06T12:00:00Z'], ['2026-04-03T12:00:00Z', '2026-04-07T12:00:00Z']],
  ];
  for (const [zone, spring, autumn] of zones) {
    it(`${zone}: a daily 02:30 runs once a day; in the spring-forward gap just after it, in the repeated autumn hour once`, () => {
      const springRuns = dueTimes('30 2 * * *', zone, ...spring).map((t) => local(t, zone));
      assert.equal(springRuns.length, 4, springRuns.join(', '));
      assert.equal(new Set(springRuns.map((t) => t.slice(0, 10))).size, 4, 'one a day, none repeated');
      assert.equal(springRuns.filter((t) => t.endsWith('03:00:00')).length, 1, `the gap's run just after it: ${springRuns.join(', ')}`);
      assert.equal(springRuns.filter((t) => t.endsWith('02:30:00')).length, 3);

      const autumnRuns = dueTimes('30 2 * * *', zone, ...autumn);
      assert.equal(autumnRuns.length, 4, autumnRuns.join(', '));
      assert.deepEqual(
        autumnRuns.map((t) => local(t, zone).slice(11)),
        ['02:30:00', '02:30:00', '02:30:00', '02:30:00'],
      );
      assert.equal(new Set(autumnRuns.map((t) => local(t, zone).slice(0, 10))).size, 4, 'the repeated 02:30 runs once');
    });
  }

  it('Asia/Kolkata (+5:30, no changes): 02:30 is 21:00 UTC the day before', () => {
    assert.deepEqual(dueTimes('30 2 * * *', 'Asia/Kolkata', '2026-03-27T12:00:00Z', '2026-03-29T12:00:00Z'), [
      '2026-03-27T21:00:00.000Z',
      '2026-03-28T21:00:00.000Z',
    ]);
  });

  it('every 4 hours through the Berlin autumn night: no hour run twice, none missed', () => {
    const runs = dueTimes('0 */4 * * *', 'Europe/Berlin', '2026-10-24T20:00:00Z', '2026-10-25T20:00:00Z').map((t) =>
      local(t, 'Europe/Berlin').slice(11, 16),
    );
    assert.deepEqual(runs, ['00:00', '04:00', '08:00', '12:00', '16:00', '20:00']);
  });

  it('adds at most the jitter to the cron time', () => {
    const row = { cron: '0 3 * * *', timezone: 'UTC', jitter_s: 120 };
    const late = nextSlot(row, Date.parse('2026-01-01T00:00:00Z'), 0, () => 0.999);
    assert.equal(late.next_slot_at, '2026-01-01T03:00:00.000Z');
    assert.equal(late.next_run_at, '2026-01-01T03:02:00.000Z');
    assert.equal(nextSlot(row, Date.parse('2026-01-01T00:00:00Z'), 0, () => 0).next_run_at, '2026-01-01T03:00:00.000Z');
  });

  it('refuses an expression or a time zone it cannot read, naming the field', () => {
    assert.throws(() => assertCalendar({ cron: '61 * * * *', timezone: 'UTC' }), /field 'cron': .*minute/);
    assert.throws(() => assertCalendar({ cron: 'every day', timezone: 'UTC' }), /field 'cron'/);
    assert.throws(() => assertCalendar({ cron: '0 3 * * *', timezone: 'Mars/Olympus' }), /field 'timezone'/);
    assert.throws(() => assertCalendar({ cron: '0 0 30 2 *', timezone: 'UTC' }), /field 'cron'/, 'February 30th never comes');
    assertCalendar({ cron: '0 3 * * 1-5', timezone: 'Asia/Kolkata' });
  });

  it('names both fields when both the expression and the time zone are wrong, each in details', () => {
    const err = (() => {
      try {
        assertCalendar({ cron: '61 * * * *', timezone: 'Mars/Olympus' });
      } catch (e) {
        return e as ApiError;
      }
      assert.fail('refused');
    })();
    assert.match(err.message, /field 'timezone': .*; field 'cron': .*minute/);
    assert.deepEqual(
      (err.extra.details as { field: string }[]).map((d) => d.field),
      ['timezone', 'cron'],
    );
  });

  it('a run with steps before its time is due that much earlier: its time is the next whose first step is ahead', () => {
    const row = { cron: '0 4 * * *', timezone: 'UTC', jitter_s: 0 };
    assert.deepEqual(nextSlot(row, Date.parse('2026-01-01T00:00:00Z'), 900), {
      next_slot_at: '2026-01-01T04:00:00.000Z',
      next_run_at: '2026-01-01T03:45:00.000Z',
    });
    // At 03:50 the first warning of today's is past: tomorrow's.
    assert.deepEqual(nextSlot(row, Date.parse('2026-01-01T03:50:00Z'), 900), {
      next_slot_at: '2026-01-02T04:00:00.000Z',
      next_run_at: '2026-01-02T03:45:00.000Z',
    });
  });
});

describe('moving a cron expression (the migration to action times)', () => {
  it('moves the time fields when the moved times can be written', () => {
    assert.equal(shiftCron('0 4 * * *', 900), '15 4 * * *');
    assert.equal(shiftCron('50 3 * * 1-5', 900), '5 4 * * 1-5');
    assert.equal(shiftCron('0 */6 * * *', 900), '15 0,6,12,18 * * *');
    assert.equal(shiftCron('0 * * * *', 600), '10 * * * *');
    assert.equal(shiftCron('*/15 * * * *', 300), '5,20,35,50 * * * *');
    assert.equal(shiftCron('0 4 * * *', 90), '30 1 4 * * *', 'seconds: six fields');
    assert.equal(shiftCron('30 0 4 * * *', 30), '0 1 4 * * *', 'six fields stay six');
    assert.equal(shiftCron('50 23 * * *', 900), '5 0 * * *', 'past midnight, every day: the next day is as good');
    assert.equal(shiftCron('15 4 * * *', -900), '0 4 * * *');
  });

  it('gives null when the moved times are not one expression', () => {
    assert.equal(shiftCron('50 23 * * 1', 900), null, 'past midnight on Mondays only would be Tuesdays');
    assert.equal(shiftCron('0,50 4 * * *', 900), null, '04:15 and 05:05: no set of minutes and hours is just those');
    assert.equal(shiftCron('@daily', 900), null);
    assert.equal(shiftCron('0 4 L * *', 900), '15 4 L * *', 'the day fields are kept as they are');
    assert.equal(shiftCron('0 4-5/x * * *', 900), null);
  });
});
