import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '@garrison/server';
import { waitFor } from '@garrison/testkit';
import { createServer, startHarness, withDatabase, type Harness } from './helpers.js';

/** Slow periodic work out of the way; schedules polled every minute. */
const QUIET = { metricsIntervalMs: 3_600_000, playersPollMs: 3_600_000, banExpiryCheckMs: 3_600_000, schedulePollMs: 60_000 };
const MIN = 60_000;
/** A day of fake time, polled every minute, takes a while on a busy machine. */
const LONG = { timeout: 240_000 };

type Run = { id: number; due_at: string; status: string; steps: { at_s: number; status: string; at: string | null }[] };
type Sch = { id: number; cron: string; next_run_at: string | null; next_runs: string[]; steps: { at_s: number; action: string }[] };

/** A step that does nothing on a stopped server but record when it was tried. */
const probe = (at_s: number) => ({ at_s, action: 'rcon_command', payload: { command: '#monitor' }, continue_on_failure: true });

/**
 * Moves the fake clock on by `ms`, stopping at each poll of the schedules and at each step's time; at each
 * stop it waits until the poll is done (its next one waiting), no due run is left unclaimed, and every
 * run of the schedule has either ended or waits on the fake clock for its next step: each step is then
 * stamped with the time it was due, however busy the machine. A run begins at the poll that finds it due
 * (polls come every minute, not on the minute): its times are compared to the minute.
 */
async function advance(h: Harness, clock: FakeClock, serverId: number, scheduleId: number, ms: number): Promise<void> {
  const target = clock.now() + ms;
  const atRest = async () => {
    if (!clock.timers.some((t) => t.label === 'schedules.poll')) return false; // a poll under way
    const sch = (await h.api('GET', `/servers/${serverId}/schedules/${scheduleId}`, { token: h.adminToken })).body.data as Sch;
    const lead = Math.max(0, ...sch.steps.map((st) => -st.at_s));
    const polled = clock.now() - MIN; // due by the last poll, at the latest
    if (sch.next_run_at && Date.parse(sch.next_run_at) - lead * 1000 <= polled) return false; // due, not yet claimed
    const runs = (await h.api('GET', `/servers/${serverId}/schedules/${scheduleId}/runs?limit=50`, { token: h.adminToken })).body.data
      .items as Run[];
    return runs
      .filter((r) => r.status === 'running' || r.status === 'queued')
      .every((r) => clock.timers.some((t) => t.label?.startsWith(`schedule.step:${r.id}:`)));
  };
  while (clock.now() < target) {
    await waitFor(atRest, { what: 'the schedule at rest', intervalMs: 5 });
    const stops = clock.timers.filter((t) => t.label === 'schedules.poll' || t.label?.startsWith('schedule.step:')).map((t) => t.inMs);
    await clock.advance(Math.max(1, Math.min(target - clock.now(), ...stops)));
  }
  await waitFor(atRest, { what: 'the schedule at rest', intervalMs: 5 });
}

/** Moves the fake clock on to `iso` at once: for stretches in which the schedule has nothing due. */
const jump = (clock: FakeClock, iso: string) => clock.advance(Date.parse(iso) - clock.now());

const runsOf = async (h: Harness, serverId: number, scheduleId: number) =>
  (
    (await h.api('GET', `/servers/${serverId}/schedules/${scheduleId}/runs?limit=50`, { token: h.viewerToken })).body.data.items as Run[]
  ).reverse();
/** A time to the minute, in a zone: runs begin at the poll that finds them due (within a minute). */
const local = (iso: string, timeZone: string) => new Date(iso).toLocaleString('sv-SE', { timeZone }).slice(0, 16);
const minute = (iso: string | null) => iso?.slice(0, 16);

describe("a schedule's time is its action's time", () => {
  let h: Harness;
  const clock = new FakeClock(new Date('2026-06-01T03:00:00Z'));
  before(async () => {
    h = await startHarness({ clock, ...QUIET });
  });
  after(() => h.close());

  it('0 4 * * * with warnings at 15, 10, 5 and 1 minutes: warnings from 03:45, the restart at 04:00', async () => {
    const s = await createServer(h);
    const res = await h.api('POST', `/servers/${s.id}/schedules`, {
      token: h.adminToken,
      body: { name: 'Nightly', cron: '0 4 * * *', timezone: 'UTC', template: { kind: 'restart_with_warnings' } },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const sch = res.body.data as Sch;
    assert.deepEqual(
      sch.steps.map((st) => [st.at_s, st.action]),
      [
        [-900, 'rcon_say'],
        [-600, 'rcon_say'],
        [-300, 'rcon_say'],
        [-60, 'rcon_say'],
        [0, 'restart'],
      ],
    );
    assert.equal(sch.next_run_at, '2026-06-01T04:00:00.000Z', "the answer's next run is the restart's time");
    assert.equal(sch.next_runs[0], '2026-06-01T04:00:00.000Z');

    await jump(clock, '2026-06-01T03:40:00Z');
    await advance(h, clock, s.id, sch.id, 4 * MIN);
    assert.deepEqual(await runsOf(h, s.id, sch.id), [], 'nothing before 03:45');
    await advance(h, clock, s.id, sch.id, 17 * MIN); // to 04:01: a run begins at the poll after its time, within a minute
    const [run, ...more] = await runsOf(h, s.id, sch.id);
    assert.equal(more.length, 0);
    assert.equal(run.due_at, '2026-06-01T03:45:00.000Z', 'the run is due at its first warning');
    assert.deepEqual(
      run.steps.map((st) => minute(st.at)),
      ['2026-06-01T03:45', '2026-06-01T03:50', '2026-06-01T03:55', '2026-06-01T03:59', '2026-06-01T04:00'],
    );
    const next = (await h.api('GET', `/servers/${s.id}/schedules/${sch.id}`, { token: h.viewerToken })).body.data as Sch;
    assert.equal(next.next_run_at, '2026-06-02T04:00:00.000Z');
  });

  it('a schedule made after its first warning would have been given waits for its next time', async () => {
    const s = await createServer(h);
    // 04:00 now: a run at 04:10 with a warning 15 minutes ahead cannot be warned for.
    const sch = (
      await h.api('POST', `/servers/${s.id}/schedules`, {
        token: h.adminToken,
        body: { name: 'x', cron: '10 4 * * *', timezone: 'UTC', steps: [probe(-900), probe(0)] },
      })
    ).body.data as Sch;
    assert.equal(sch.next_run_at, '2026-06-02T04:10:00.000Z');
  });
});

describe('schedules at changes of the clocks (Europe/Berlin)', () => {
  let h: Harness;
  // The Saturday before the autumn night (2026-10-25, 03:00 CEST → 02:00 CET).
  const clock = new FakeClock(new Date('2026-10-24T00:00:00Z'));
  before(async () => {
    h = await startHarness({ clock, ...QUIET });
  });
  after(() => h.close());

  it('in the repeated hour a 02:30 runs once, at the first 02:30 (CEST); its warnings 15 minutes before it', LONG, async () => {
    const s = await createServer(h);
    const sch = (
      await h.api('POST', `/servers/${s.id}/schedules`, {
        token: h.adminToken,
        body: { name: 'Nightly', cron: '30 2 * * *', timezone: 'Europe/Berlin', steps: [probe(-900), probe(0)] },
      })
    ).body.data as Sch;
    assert.deepEqual(sch.next_runs.slice(0, 3), ['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    for (const day of ['2026-10-24T00:10:00Z', '2026-10-25T00:10:00Z', '2026-10-26T01:10:00Z']) {
      await jump(clock, day);
      // Through both 02:30s of the autumn night (00:30Z CEST, 01:30Z CET), a minute at a time.
      await advance(h, clock, s.id, sch.id, (day.startsWith('2026-10-25') ? 90 : 30) * MIN);
    }
    const runs = await runsOf(h, s.id, sch.id);
    assert.deepEqual(
      runs.map((r) => r.steps.map((st) => local(st.at!, 'Europe/Berlin'))),
      [
        ['2026-10-24 02:15', '2026-10-24 02:30'],
        ['2026-10-25 02:15', '2026-10-25 02:30'], // CEST (00:15Z, 00:30Z); the second 02:30 (CET) has no run
        ['2026-10-26 02:15', '2026-10-26 02:30'],
      ],
    );
    assert.deepEqual(
      runs[1].steps.map((st) => minute(st.at)),
      ['2026-10-25T00:15', '2026-10-25T00:30'],
    );
  });

  it(
    'in the skipped hour a 02:30 runs at 03:00 (CEST), just after the gap; its warnings 15 minutes before, at 01:45 (CET)',
    LONG,
    async () => {
      const spring = new FakeClock(new Date('2026-03-28T00:00:00Z'));
      const hs = await startHarness({ clock: spring, ...QUIET });
      try {
        const s = await createServer(hs);
        const sch = (
          await hs.api('POST', `/servers/${s.id}/schedules`, {
            token: hs.adminToken,
            body: { name: 'Nightly', cron: '30 2 * * *', timezone: 'Europe/Berlin', steps: [probe(-900), probe(0)] },
          })
        ).body.data as Sch;
        for (const day of ['2026-03-28T01:10:00Z', '2026-03-29T00:30:00Z', '2026-03-30T00:10:00Z']) {
          await jump(spring, day);
          await advance(hs, spring, s.id, sch.id, 40 * MIN);
        }
        const runs = await runsOf(hs, s.id, sch.id);
        assert.deepEqual(
          runs.map((r) => r.steps.map((st) => local(st.at!, 'Europe/Berlin'))),
          [
            ['2026-03-28 02:15', '2026-03-28 02:30'],
            ['2026-03-29 01:45', '2026-03-29 03:00'], // 00:45Z and 01:00Z: fifteen real minutes
            ['2026-03-30 02:15', '2026-03-30 02:30'],
          ],
        );
      } finally {
        await hs.close();
      }
    },
  );
});

describe("the upgrade of schedules made when the cron time was the run's start (migration 019)", () => {
  it(
    'moves each cron to its restart, its steps back as far, ' + 'and leaves a cron it cannot move as it was: nothing runs at another time',
    async () => {
      const clock = new FakeClock(new Date('2026-06-01T00:00:00Z'));
      const old = await startHarness({ clock, ...QUIET });
      let upgraded: Harness | undefined;
      try {
        const s = await createServer(old);
        // Written as an older version did: the cron is the run's start, the restart 15 minutes after it.
        const write = async (name: string, cron: string, days = '') =>
          withDatabase(old, async (knex) => {
            const [id] = await knex('schedules').insert({
              server_id: s.id,
              name,
              cron: `${cron}${days}`,
              timezone: 'UTC',
              enabled: true,
              misfire_late_s: null,
              jitter_s: 0,
              overlap: 'skip',
              conditions: '{}',
              next_slot_at: '2026-06-01T04:00:00.000Z',
              next_run_at: '2026-06-01T04:00:00.000Z',
              disabled_reason: null,
              created_at: '2026-06-01T00:00:00.000Z',
              updated_at: '2026-06-01T00:00:00.000Z',
            });
            const steps = [
              [0, 'rcon_say'],
              [600, 'rcon_say'],
              [900, 'restart'],
            ] as const;
            await knex('schedule_steps').insert(
              steps.map(([at_s, action], idx) => ({
                schedule_id: id,
                idx,
                at_s,
                action,
                payload: action === 'rcon_say' ? '{"message":"Restart in {minutes} min"}' : '{}',
                continue_on_failure: action === 'rcon_say',
              })),
            );
            return id;
          });
        const nightly = await write('Nightly', '0 4 * * *');
        const odd = await write('Odd', '0,50 4 * * *');
        await old.server.close();
        await withDatabase(old, (knex) => knex('knex_migrations').where({ name: '019_schedule_action_time' }).delete());
        // Back to how the rows were before 019 ran on this database (019 found nothing to move then).
        upgraded = await startHarness({ clock, ...QUIET, dataDir: old.dataDir, databaseUrl: old.databaseUrl });
        const read = async (id: number) =>
          (await upgraded!.api('GET', `/servers/${s.id}/schedules/${id}`, { token: upgraded!.viewerToken })).body.data as Sch;

        const moved = await read(nightly);
        assert.equal(moved.cron, '15 4 * * *');
        assert.deepEqual(
          moved.steps.map((st) => [st.at_s, st.action]),
          [
            [-900, 'rcon_say'],
            [-300, 'rcon_say'],
            [0, 'restart'],
          ],
        );
        assert.equal(moved.next_run_at, '2026-06-01T04:15:00.000Z', 'the restart keeps its time');
        const [row] = await withDatabase(upgraded, (knex) => knex('schedules').where({ id: nightly }).select('next_run_at'));
        assert.equal(row.next_run_at, '2026-06-01T04:00:00.000Z', 'the run is still due at 04:00');

        const kept = await read(odd);
        assert.equal(kept.cron, '0,50 4 * * *', '04:15 and 05:05 are no one expression: left as it was');
        assert.deepEqual(
          kept.steps.map((st) => st.at_s),
          [0, 600, 900],
          'after the cron time, as before',
        );

        // The upgraded schedule runs as the old one did: warnings at 04:00 and 04:10, the restart at 04:15.
        await jump(clock, '2026-06-01T03:55:00Z');
        await advance(upgraded, clock, s.id, nightly, 22 * MIN);
        const [run] = await runsOf(upgraded, s.id, nightly);
        assert.deepEqual(
          run.steps.map((st) => minute(st.at)),
          ['2026-06-01T04:00', '2026-06-01T04:10', '2026-06-01T04:15'],
        );
      } finally {
        await upgraded?.close();
        await old.close().catch(() => undefined);
      }
    },
  );
});
