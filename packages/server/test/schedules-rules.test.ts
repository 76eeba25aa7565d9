import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '@garrison/server';
import { waitFor } from '@garrison/testkit';
import { createServer, startHarness, type Harness } from './helpers.js';

const QUIET = { metricsIntervalMs: 3_600_000, playersPollMs: 3_600_000, banExpiryCheckMs: 3_600_000, schedulePollMs: 10_000 };
/** A step that fails at once on a stopped server (no remote admin) and lets the run go on. */
const TRY = { action: 'rcon_command', payload: { command: '#monitor' }, continue_on_failure: true };

async function advance(clock: FakeClock, ms: number, stepMs = 10_000): Promise<void> {
  for (let moved = 0; moved < ms; moved += stepMs) {
    await clock.advance(Math.min(stepMs, ms - moved));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A schedule's conditions and its overlap rule, on a fake clock. */
describe('schedule conditions and overlap', () => {
  let h: Harness;
  const clock = new FakeClock(new Date('2026-07-01T00:00:30Z'));
  before(async () => {
    h = await startHarness({ clock, ...QUIET });
  });
  after(() => h.close());

  const schedule = async (serverId: number, body: Record<string, unknown>) => {
    const res = await h.api('POST', `/servers/${serverId}/schedules`, {
      token: h.adminToken,
      body: { name: 'Rule', cron: '* * * * *', ...body },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as number;
  };
  const runs = async (serverId: number, id: number) =>
    (
      (await h.api('GET', `/servers/${serverId}/schedules/${id}/runs?limit=100`, { token: h.adminToken })).body.data.items as {
        status: string;
        reason: string | null;
        trigger: string;
      }[]
    ).reverse();
  /**
   * The runs once `ready` says they are there, moving time on by 5 s between looks: on a busy machine a
   * poll's database work ends after the clock moved on, and what it leads to needs time to move again.
   */
  const runsWhen = (serverId: number, id: number, ready: (all: Awaited<ReturnType<typeof runs>>) => boolean, what: string) =>
    waitFor(
      async () => {
        const all = await runs(serverId, id);
        if (ready(all)) return all;
        await clock.advance(5_000);
        return false;
      },
      { what, timeoutMs: 60_000, intervalMs: 1 },
    );

  it('skips a run whose conditions do not hold, with the reason; run now ignores them', async () => {
    const s = await createServer(h);
    // A poll that fell behind the fake clock must not turn these into misfires: only the conditions skip here.
    const misfire = { run_if_late_by_s: 3600 };
    // The manual run waits for a scheduled one still checking its conditions (overlap: queue), never skipped beside it.
    const whenRunning = await schedule(s.id, {
      conditions: { when_running: true },
      overlap: 'queue',
      misfire,
      steps: [{ at_s: 0, ...TRY }],
    });
    const crowded = await schedule(s.id, { conditions: { players_min: 1, hold_s: 30 }, misfire, steps: [{ at_s: 0, ...TRY }] });
    await advance(clock, 60_000);
    const [first] = await runsWhen(s.id, whenRunning, (all) => all.length > 0 && all[0].status !== 'running', 'the first run');
    assert.equal(first.status, 'skipped');
    assert.match(first.reason!, /the server is stopped, and the schedule runs only while it runs/);
    await advance(clock, 40_000);
    const [held] = await runsWhen(s.id, crowded, (all) => all.length > 0 && all[0].status !== 'running', 'the held run');
    assert.equal(held.status, 'skipped');
    assert.match(held.reason!, /0 players are in, fewer than 1 \(the conditions must hold 30 s\)/);

    await h.api('POST', `/servers/${s.id}/schedules/${whenRunning}/run`, { token: h.adminToken });
    await advance(clock, 10_000);
    const manual = (
      await runsWhen(
        s.id,
        whenRunning,
        (all) => all.some((r) => r.trigger === 'manual' && !['running', 'queued'].includes(r.status)),
        'the manual run',
      )
    ).find((r) => r.trigger === 'manual');
    assert.equal(manual?.status, 'succeeded', `a person decided: the conditions do not apply (${manual?.reason})`);
  });

  it('skips a run due while the one before still runs (overlap skip), or queues it (overlap queue)', async () => {
    const s = await createServer(h);
    const steps = [
      { at_s: 0, ...TRY },
      { at_s: 150, ...TRY },
    ]; // each run lasts two and a half minutes
    // Runs found late by a poll that fell behind the fake clock (a busy machine) still run: here only overlap skips.
    const misfire = { run_if_late_by_s: 3600 };
    const skips = await schedule(s.id, { overlap: 'skip', misfire, steps });
    const queues = await schedule(s.id, { overlap: 'queue', misfire, steps });
    await advance(clock, 4 * 60_000);
    await runsWhen(
      s.id,
      skips,
      (all) => all.some((r) => r.status === 'skipped' && /still running \(overlap: skip\)/.test(r.reason ?? '')),
      'a run skipped for overlap',
    );
    const queued = await runsWhen(s.id, queues, (all) => all.some((r) => r.status === 'queued'), 'a run waiting its turn');
    assert.ok(!queued.some((r) => r.status === 'skipped'), 'none skipped');
    await advance(clock, 6 * 60_000);
    const later = await runsWhen(
      s.id,
      queues,
      (all) => all.filter((r) => r.status === 'succeeded').length >= 2,
      'queued runs to run after the one before',
    );
    assert.ok(later.filter((r) => r.status === 'running').length <= 1, 'never two at once');
  });
});
