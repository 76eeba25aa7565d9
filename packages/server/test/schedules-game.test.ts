import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '@garrison/server';
import { connectRcon, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import type { BattlEyeClient } from '@garrison/battleye';
import { startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, GAME_ON_FAKE_CLOCK, killGames, serverRecord, type FakeInstall } from './games.js';

const GUID = 'e'.repeat(32);
/** Timers of the service on the fake clock; the players poll fast, for wait_until_empty. */
const OPTIONS = { ...GAME_ON_FAKE_CLOCK, playersPollMs: 2_000 };
const NEVER = '0 0 1 1 *'; // these schedules run when asked to

describe('schedule runs against the fake game, on a fake clock', () => {
  let h: Harness;
  let fake: FakeInstall;
  const clock = new FakeClock();
  const clients: BattlEyeClient[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startHarness({ clock, ...OPTIONS });
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await killGames(h);
    await h.close();
    await fake.remove();
  });

  const running = async () => {
    const s = await createGameServer(h, fake);
    await h.api('POST', `/servers/${s.id}/start`, { token: h.adminToken });
    await advanceUntil(clock, async () => (await serverRecord(h, s.id)).status === 'running', `server ${s.id} running`);
    // A second RCon admin, as a player's client would see what is said to everyone.
    const client = await connectRcon({ host: '127.0.0.1', port: s.rcon_port, password: s.rcon_password });
    clients.push(client);
    const said: string[] = [];
    client.onMessage((m) => said.push(m));
    return { ...s, said };
  };
  const schedule = async (serverId: number, body: Record<string, unknown>) => {
    const res = await h.api('POST', `/servers/${serverId}/schedules`, {
      token: h.adminToken,
      body: { name: 'Test', cron: NEVER, ...body },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: number };
  };
  const runNow = async (serverId: number, scheduleId: number) =>
    (await h.api('POST', `/servers/${serverId}/schedules/${scheduleId}/run`, { token: h.adminToken })).body.data.run_id as number;
  const run = async (serverId: number, scheduleId: number, runId: number) =>
    (
      (await h.api('GET', `/servers/${serverId}/schedules/${scheduleId}/runs`, { token: h.adminToken })).body.data.items as {
        id: number;
        status: string;
        reason: string | null;
        steps: { status: string; error: string | null }[];
      }[]
    ).find((r) => r.id === runId)!;

  it("counts down in game with say -1 at the template's offsets, then restarts", async () => {
    const s = await running();
    const { pid } = await serverRecord(h, s.id);
    const sch = await schedule(s.id, { template: { kind: 'restart_with_warnings', warn_minutes: [3, 1] } });
    const runId = await runNow(s.id, sch.id);
    await waitFor(() => s.said.some((m) => m.endsWith('(Global) Server restart in 3 min')), { what: 'the first warning' });
    await clock.advance(119_000);
    // A second before its time the second warning has not begun (its wait is on the fake clock), so nothing of it was said.
    assert.equal((await run(s.id, sch.id, runId)).steps[1].status, 'pending', 'not before its time');
    assert.ok(!s.said.some((m) => m.includes('1 min')));
    await clock.advance(1_000);
    await waitFor(() => s.said.some((m) => m.endsWith('(Global) Server restart in 1 min')), { what: 'the second warning' });
    assert.equal((await serverRecord(h, s.id)).pid, pid, 'not restarted yet');
    const done = await advanceUntil(
      clock,
      async () => {
        const r = await run(s.id, sch.id, runId);
        return r.status !== 'running' && r;
      },
      'the run to end',
      1_000,
    );
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.notEqual((await serverRecord(h, s.id)).pid, pid, 'restarted');
    const restarts = (await h.api('GET', `/servers/${s.id}/events?event_type=restart`, { token: h.adminToken })).body.data.events;
    assert.equal(restarts.length, 1);
    assert.equal(restarts[0].actor_kind, 'user', 'run now: the person who asked');
  });

  it('waits until the server is empty, and gives up with abort when players stay', async () => {
    const s = await running();
    await h.api('POST', `/servers/${s.id}/rcon/command`, { token: h.adminToken, body: { command: `testkit.join Dave ${GUID} 10.0.0.7` } });
    await advanceUntil(
      clock,
      async () => (await h.api('GET', `/servers/${s.id}/players`, { token: h.adminToken })).body.data.player_count === 1,
      'Dave in the list',
      1_000,
    );

    const waits = await schedule(s.id, {
      steps: [
        { at_s: 0, action: 'wait_until_empty', payload: { max_wait_s: 600, on_timeout: 'abort' } },
        { at_s: 0, action: 'rcon_say', payload: { message: 'Everyone left' } },
      ],
    });
    const runId = await runNow(s.id, waits.id);
    for (let i = 0; i < 6; i++) await clock.advance(10_000);
    assert.equal((await run(s.id, waits.id, runId)).status, 'running', 'still waiting while Dave plays');
    const slot = (await h.api('GET', `/servers/${s.id}/players`, { token: h.adminToken })).body.data.players[0].slot_id;
    await h.api('POST', `/servers/${s.id}/rcon/command`, { token: h.adminToken, body: { command: `testkit.leave ${slot}` } });
    const done = await advanceUntil(
      clock,
      async () => {
        const r = await run(s.id, waits.id, runId);
        return r.status !== 'running' && r;
      },
      'the wait to end',
      1_000,
    );
    assert.equal(done.status, 'succeeded');
    await waitFor(() => s.said.some((m) => m.endsWith('(Global) Everyone left')), { what: 'the message after the wait' });

    await h.api('POST', `/servers/${s.id}/rcon/command`, {
      token: h.adminToken,
      body: { command: `testkit.join Erin ${'f'.repeat(32)} 10.0.0.8` },
    });
    await advanceUntil(
      clock,
      async () => (await h.api('GET', `/servers/${s.id}/players`, { token: h.adminToken })).body.data.player_count === 1,
      'Erin in the list',
      1_000,
    );
    const gives = await schedule(s.id, {
      steps: [
        { at_s: 0, action: 'wait_until_empty', payload: { max_wait_s: 30, on_timeout: 'abort' } },
        { at_s: 0, action: 'stop' },
      ],
    });
    const gaveUp = await runNow(s.id, gives.id);
    const ended = await advanceUntil(
      clock,
      async () => {
        const r = await run(s.id, gives.id, gaveUp);
        return r.status !== 'running' && r;
      },
      'the wait to give up',
      5_000,
    );
    assert.equal(ended.status, 'skipped');
    assert.match(ended.reason!, /1 players still in after 30 s/);
    assert.deepEqual(
      ended.steps.map((st) => st.status),
      ['succeeded', 'skipped'],
      'the stop never came',
    );
    assert.equal((await serverRecord(h, s.id)).status, 'running');
  });
});

describe('a schedule run across a restart of the service', () => {
  let fake: FakeInstall;
  const harnesses: Harness[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
  });
  after(async () => {
    for (const h of harnesses) await killGames(h).catch(() => {});
    for (const h of harnesses.reverse()) await h.close().catch(() => {});
    await fake.remove();
  });

  it('is taken over once its lease runs out: goes on from its first step not begun, and never does a begun one again', async () => {
    const t0 = Date.now();
    const first = await startHarness({ clock: new FakeClock(t0), ...OPTIONS });
    harnesses.push(first);
    const s = await createGameServer(first, fake);
    const steps = [
      { at_s: 0, action: 'rcon_command', payload: { command: '#monitor' }, continue_on_failure: true },
      { at_s: 120, action: 'start' },
    ];
    const ids: number[] = [];
    for (const name of ['resumes', 'interrupted'])
      ids.push(
        (await first.api('POST', `/servers/${s.id}/schedules`, { token: first.adminToken, body: { name, cron: NEVER, steps } })).body.data
          .id,
      );
    const runs: number[] = [];
    for (const id of ids)
      runs.push((await first.api('POST', `/servers/${s.id}/schedules/${id}/run`, { token: first.adminToken })).body.data.run_id as number);
    const stepsOf = (runId: number) =>
      withDatabase(first, async (knex) => JSON.parse((await knex('schedule_runs').where({ id: runId }).first()).steps));
    await waitFor(
      async () => (await Promise.all(runs.map(stepsOf))).every((st) => st[0].status !== 'pending' && st[0].status !== 'running'),
      { what: 'the first steps done' },
    );
    await first.server.close(); // the runs stop where they are: waiting for their start at 120 s

    // The second run's start had begun when its instance died: what the new owner finds.
    const interrupted = await stepsOf(runs[1]);
    interrupted[1].status = 'running';
    await withDatabase(first, (knex) =>
      knex('schedule_runs')
        .where({ id: runs[1] })
        .update({ steps: JSON.stringify(interrupted) }),
    );

    const clock = new FakeClock(t0 + 5 * 60_000); // past the lease
    const second = await startHarness({ clock, ...OPTIONS, dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    harnesses.push(second);
    const ended = await advanceUntil(
      clock,
      async () => {
        const rows = await withDatabase(second, (knex) => knex('schedule_runs').whereIn('id', runs).orderBy('id'));
        return rows.every((r: { status: string }) => r.status !== 'running') && rows;
      },
      'both runs to end',
      1_000,
    );
    const [resumed, broken] = ended.map((r: { status: string; reason: string; steps: string }) => ({ ...r, steps: JSON.parse(r.steps) }));
    assert.equal(resumed.status, 'succeeded', JSON.stringify(resumed));
    assert.deepEqual(
      resumed.steps.map((st: { status: string }) => st.status),
      ['failed', 'succeeded'],
      'the first step not done again, the start done once',
    );
    assert.equal(broken.status, 'failed');
    assert.match(broken.steps[1].error, /interrupted/);
    const starts = (await second.api('GET', `/servers/${s.id}/events?event_type=start`, { token: second.adminToken })).body.data.events;
    assert.equal(starts.length, 1, 'one start, by the run that went on');
    assert.equal(starts[0].actor_kind, 'schedule', 'taken over: the schedule acts, whoever asked first');
    await advanceUntil(clock, async () => (await serverRecord(second, s.id)).status === 'running', 'the game started by the run', 1_000);
  });
});
