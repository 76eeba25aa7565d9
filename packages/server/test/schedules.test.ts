import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FakeClock } from '@garrison/server';
import { waitFor } from '@garrison/testkit';
import { createServer, expectError, onMysql, startHarness, withDatabase, type Harness } from './helpers.js';

/** Slow periodic work out of the way: three days of fake time fire only the jobs these tests are about. */
const QUIET = { metricsIntervalMs: 3_600_000, playersPollMs: 3_600_000, banExpiryCheckMs: 3_600_000, schedulePollMs: 300_000 };
const DAY = 86_400_000;

/** Moves the fake clock on in polls, letting each poll's database work finish before the next. */
async function advance(clock: FakeClock, ms: number, stepMs = 300_000): Promise<void> {
  for (let moved = 0; moved < ms; moved += stepMs) {
    await clock.advance(Math.min(stepMs, ms - moved));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('schedules on a fake clock', () => {
  let h: Harness;
  // Saturday before the spring-forward night in Berlin (2026-03-29, 02:00 → 03:00).
  const clock = new FakeClock(new Date('2026-03-28T00:00:00Z'));
  before(async () => {
    h = await startHarness({ clock, ...QUIET });
  });
  after(() => h.close());

  const create = (serverId: number, body: Record<string, unknown>, token = h.adminToken) =>
    h.api('POST', `/servers/${serverId}/schedules`, { token, body });
  const runs = async (serverId: number, scheduleId: number) =>
    (await h.api('GET', `/servers/${serverId}/schedules/${scheduleId}/runs?limit=50`, { token: h.viewerToken })).body.data;
  const monitor = [{ at_s: 0, action: 'rcon_command', payload: { command: '#monitor' }, continue_on_failure: true }];

  it("runs a daily 02:30 in Berlin once a day across the spring-forward night, the gap's run just after it", async () => {
    const s = await createServer(h);
    const res = await create(s.id, {
      name: 'Nightly',
      cron: '30 2 * * *',
      timezone: 'Europe/Berlin',
      misfire: { run_if_late_by_s: 3600 },
      steps: monitor,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const schedule = res.body.data;
    assert.deepEqual(schedule.next_runs.slice(0, 3), ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    await advance(clock, 3 * DAY);
    const page = await runs(s.id, schedule.id);
    assert.deepEqual(page.items.map((r: { due_at: string }) => r.due_at).reverse(), [
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    for (const run of page.items) {
      assert.equal(run.status, 'succeeded', JSON.stringify(run));
      assert.deepEqual(
        run.steps.map((step: { status: string }) => step.status),
        ['failed'],
        'the game is not running: its step failed, and the run went on',
      );
    }
  });

  it('skips a run found late (misfire skip), and says why', async () => {
    const s = await createServer(h);
    const schedule = (await create(s.id, { name: 'Hourly', cron: '0 * * * *', steps: monitor })).body.data;
    const past = new Date(clock.now() - 2 * 3_600_000).toISOString();
    await withDatabase(h, (knex) => knex('schedules').where({ id: schedule.id }).update({ next_run_at: past, next_slot_at: past }));
    await advance(clock, 300_000);
    // The poll's database work may finish after the clock moved on (MariaDB on a busy machine).
    const [run] = await waitFor(
      async () => {
        const items = (await runs(s.id, schedule.id)).items;
        return items.length > 0 && items;
      },
      { what: 'the late run recorded' },
    );
    assert.equal(run.status, 'skipped');
    assert.match(run.reason, /late by 7\d{3} s .*misfire policy skip/);
    const next = (await h.api('GET', `/servers/${s.id}/schedules/${schedule.id}`, { token: h.viewerToken })).body.data.next_run_at;
    assert.ok(Date.parse(next) > clock.now(), 'on to its next time, not every missed one');
  });

  it('disables a schedule whose stored expression no longer reads, with an audit entry, and goes on', async () => {
    const s = await createServer(h);
    const schedule = (await create(s.id, { name: 'Broken', cron: '*/5 * * * *', steps: monitor })).body.data;
    await withDatabase(h, (knex) => knex('schedules').where({ id: schedule.id }).update({ cron: '99 * * * *' }));
    await advance(clock, 600_000);
    const now = await waitFor(
      async () => {
        const read = (await h.api('GET', `/servers/${s.id}/schedules/${schedule.id}`, { token: h.viewerToken })).body.data;
        return !read.enabled && read;
      },
      { what: 'the schedule disabled' },
    );
    assert.match(now.disabled_reason, /cron expression cannot be read/);
    const audit = await waitFor(
      async () => {
        const events = (await h.api('GET', `/servers/${s.id}/events?event_type=schedule_disabled`, { token: h.adminToken })).body.data
          .events;
        return events.length > 0 && events;
      },
      { what: 'the audit entry' },
    );
    assert.equal(audit.length, 1);
    assert.equal((await h.api('GET', '/system/health')).status, 200);
  });

  it('expands the restart template, checks what it is given, and keeps writes to admins', async () => {
    const s = await createServer(h);
    const res = await create(s.id, {
      name: 'Restart',
      cron: '0 4 * * *',
      timezone: 'Asia/Kolkata',
      template: { kind: 'restart_with_warnings', warn_minutes: [1, 15, 5] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data.steps.map((step: { at_s: number; action: string }) => [step.at_s, step.action]),
      [
        [-900, 'rcon_say'],
        [-300, 'rcon_say'],
        [-60, 'rcon_say'],
        [0, 'restart'],
      ],
    );
    assert.equal(res.body.data.timezone, 'Asia/Kolkata');
    const id = res.body.data.id;

    expectError(await create(s.id, { name: 'x', cron: '61 * * * *', steps: monitor }), 400, 'VALIDATION_ERROR');
    assert.match(
      expectError(await create(s.id, { name: 'x', cron: '0 3 * * *', timezone: 'Mars/Base', steps: monitor }), 400, 'VALIDATION_ERROR')
        .message,
      /'timezone'/,
    );
    const both = expectError(
      await create(s.id, { name: 'x', cron: '61 * * * *', timezone: 'Mars/Base', steps: monitor }),
      400,
      'VALIDATION_ERROR',
    );
    assert.match(both.message, /field 'timezone': .*; field 'cron': /, 'both said, not only the first');
    assert.deepEqual(
      (both.details as { field: string }[]).map((d) => d.field),
      ['timezone', 'cron'],
    );
    assert.match(
      expectError(
        await create(s.id, { name: 'x', cron: '0 3 * * *', steps: monitor, template: { kind: 'restart_with_warnings' } }),
        400,
        'VALIDATION_ERROR',
      ).message,
      /either/,
    );
    assert.match(expectError(await create(s.id, { name: 'x', cron: '0 3 * * *' }), 400, 'VALIDATION_ERROR').message, /steps/);
    // One line of text, as the RCon endpoint takes it: a line break would run a second command.
    const twoLines = [{ at_s: 0, action: 'rcon_command', payload: { command: 'echo x\nrcon_password y' } }];
    assert.match(
      expectError(await create(s.id, { name: 'x', cron: '0 3 * * *', steps: twoLines }), 400, 'VALIDATION_ERROR').message,
      /control characters/,
    );
    assert.match(
      expectError(
        await create(s.id, { name: 'x', cron: '0 3 * * *', steps: [{ at_s: 0, action: 'rcon_say', payload: {} }] }),
        400,
        'VALIDATION_ERROR',
      ).message,
      /steps\[0\]\.payload\.message/,
    );
    assert.match(
      expectError(
        await create(s.id, {
          name: 'x',
          cron: '0 3 * * *',
          steps: [{ at_s: 0, action: 'set_mission', payload: { name: 'no spaces allowed.Altis' } }],
        }),
        400,
        'VALIDATION_ERROR',
      ).message,
      /steps\[0\]\.payload\.name/,
    );
    expectError(
      await create(s.id, { name: 'x', cron: '0 3 * * *', steps: [{ at_s: 0, action: 'wait_until_empty', payload: { max_wait_s: 0 } }] }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await create(s.id, { name: 'x', cron: '0 3 * * *', steps: [{ at_s: 0, action: 'reboot' }] }), 400, 'VALIDATION_ERROR');
    expectError(await create(s.id, { name: 'x', cron: '0 3 * * *', steps: monitor }, h.viewerToken), 403, 'FORBIDDEN');

    const other = await createServer(h);
    expectError(await h.api('GET', `/servers/${other.id}/schedules/${id}`, { token: h.viewerToken }), 404, 'NOT_FOUND');
    assert.equal((await h.api('GET', `/servers/${s.id}/schedules`, { token: h.viewerToken })).body.data.length, 1);

    const changed = await h.api('PUT', `/servers/${s.id}/schedules/${id}`, { token: h.adminToken, body: { enabled: false } });
    assert.deepEqual([changed.body.data.enabled, changed.body.data.next_run_at, changed.body.data.next_runs], [false, null, []]);
    const run = await h.api('POST', `/servers/${s.id}/schedules/${id}/run`, { token: h.adminToken });
    assert.equal(run.status, 202, 'run now, even when disabled: a person decided');
    assert.equal(typeof run.body.data.run_id, 'number');
    expectError(await h.api('POST', `/servers/${s.id}/schedules/${id}/run`, { token: h.viewerToken }), 403, 'FORBIDDEN');
    assert.equal((await h.api('DELETE', `/servers/${s.id}/schedules/${id}`, { token: h.adminToken })).status, 200);
    expectError(await h.api('GET', `/servers/${s.id}/schedules/${id}/runs`, { token: h.viewerToken }), 404, 'NOT_FOUND');
  });
});

// On MySQL/MariaDB the database's node lock refuses a second process of one node (data-dir-lock.test.ts):
// two processes of one node are left only on one SQLite file shared by two data dirs.
describe('two instances on one database', { skip: onMysql && 'a second process of one node is refused on MySQL/MariaDB' }, () => {
  const at = new Date('2026-06-01T10:00:00Z');
  const clocks = [new FakeClock(at), new FakeClock(at)];
  const harnesses: Harness[] = [];
  before(async () => {
    // Schedules run on the node that owns the server: for both to race for the same due times, both
    // are that node. A data dir is one service's (its lock refuses a second), so the second has its
    // own and shares the first one's database file.
    const first = await startHarness({ clock: clocks[0], ...QUIET, schedulePollMs: 10_000, nodeId: 'node-a' });
    harnesses.push(
      first,
      await startHarness({
        clock: clocks[1],
        ...QUIET,
        schedulePollMs: 10_000,
        nodeId: 'node-a',
        databaseUrl: `sqlite:${join(first.dataDir, 'garrison.db')}`,
      }),
    );
  });
  after(async () => {
    for (const h of harnesses.reverse()) await h.close();
  });

  it("never run one schedule's run twice", async () => {
    const [a] = harnesses;
    const s = await createServer(a);
    const schedule = (
      await a.api('POST', `/servers/${s.id}/schedules`, {
        token: a.adminToken,
        body: {
          name: 'Every minute',
          cron: '* * * * *',
          misfire: { run_if_late_by_s: 3600 },
          steps: [{ at_s: 0, action: 'rcon_command', payload: { command: '#monitor' }, continue_on_failure: true }],
        },
      })
    ).body.data;
    const runs = () =>
      withDatabase(a, (knex) => knex('schedule_runs').where({ schedule_id: schedule.id }).pluck('due_at')) as Promise<string[]>;
    // Ten minutes, both clocks together; a minute is over once its run is claimed (by either).
    for (let minute = 1; minute <= 10; minute++) {
      await waitFor(
        async () => {
          if ((await runs()).length >= minute) return true;
          await Promise.all(clocks.map((c) => c.advance(10_000)));
          return false;
        },
        { timeoutMs: 30_000, intervalMs: 20, what: `the run of minute ${minute}` },
      );
    }
    const due = await runs();
    assert.ok(due.length >= 10, `one run a minute for 10 minutes: ${due.length}`);
    assert.equal(new Set(due).size, due.length, 'no due time run twice');
    const minutes = due.map((d) => Date.parse(d) / 60_000).sort((x, y) => x - y);
    assert.ok(
      minutes.every((m, i) => i === 0 || m === minutes[i - 1] + 1),
      'one run for each minute, none left out',
    );
    const owners = await withDatabase(a, (knex) => knex('schedule_runs').where({ schedule_id: schedule.id }).distinct('node_id'));
    assert.ok(owners.length >= 1);
  });
});
