import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, SYSTEM_ACTOR, type CreateScheduleRequest } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';
import { ScheduleService } from '../../src/schedules/service.js';
import { RunConditions } from '../../src/schedules/conditions.js';
import { PlayerService } from '../../src/players/service.js';
import type { ScheduleRow } from '../../src/db/repositories/schedules.js';

const RESTART = [{ at_s: 0, action: 'restart' as const }];
const HOUR = 3_600_000;

/** The player list as the game would answer it: only the count matters to the conditions. */
class FakePlayers {
  count = 0;
  async list(serverId: number) {
    return { server_id: serverId, player_count: this.count, players: [] };
  }
}

describe('schedules: when they run next', () => {
  let u: UnitContainer;
  let schedules: ScheduleService;
  let serverId: number;
  const create = (fields: Partial<CreateScheduleRequest>) =>
    schedules.create(serverId, { name: 'Nightly', cron: '0 4 * * *', timezone: 'Europe/Berlin', steps: RESTART, ...fields }, SYSTEM_ACTOR);
  beforeEach(async () => {
    u = await unitContainer(); // the clock reads 2026-06-01 12:00 UTC, 14:00 in Berlin (summer time)
    schedules = u.resolve(ScheduleService);
    serverId = (
      await u.resolve(ServerService).create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, SYSTEM_ACTOR)
    ).id;
  });
  afterEach(() => u.close());

  it("reads the cron expression in the schedule's time zone", async () => {
    const schedule = await create({});
    assert.equal(schedule.next_run_at, '2026-06-02T02:00:00.000Z', '04:00 in Berlin in summer');
    assert.deepEqual(schedule.next_runs.slice(0, 2), ['2026-06-02T02:00:00.000Z', '2026-06-03T02:00:00.000Z']);
    const utc = await create({ name: 'UTC', timezone: 'UTC' });
    assert.equal(utc.next_run_at, '2026-06-02T04:00:00.000Z');
  });

  it('skips a time whose first warning has already gone by', async () => {
    await u.clock.advance(13 * HOUR + 50 * 60_000); // 01:50 UTC: ten minutes before 04:00 Berlin
    const warned = await create({ steps: undefined, template: { kind: 'restart_with_warnings', warn_minutes: [15] } });
    assert.equal(warned.next_run_at, '2026-06-03T02:00:00.000Z', 'the run would have begun 15 minutes before, at 01:45');
    const plain = await create({ name: 'No warning' });
    assert.equal(plain.next_run_at, '2026-06-02T02:00:00.000Z');
  });

  it('counts a change of time from now, and a disabled schedule has no next run', async () => {
    const schedule = await create({});
    await u.clock.advance(48 * HOUR);
    const moved = await schedules.update(serverId, schedule.id, { cron: '30 5 * * *' }, SYSTEM_ACTOR);
    assert.equal(moved.next_run_at, '2026-06-04T03:30:00.000Z');
    const off = await schedules.update(serverId, schedule.id, { enabled: false }, SYSTEM_ACTOR);
    assert.deepEqual([off.next_run_at, off.next_runs], [null, []]);
  });

  it('refuses what cannot run, naming each wrong field', async () => {
    await assert.rejects(create({ cron: '61 * * * *', timezone: 'Mars/Olympus' }), (err: ApiError) => {
      assert.equal(err.code, 'VALIDATION_ERROR');
      assert.deepEqual(
        (err.extra?.details as { field: string }[]).map((d) => d.field),
        ['timezone', 'cron'],
      );
      return true;
    });
    await assert.rejects(create({ conditions: { players_min: 5, players_max: 2 } }), /players_min is above players_max/);
    await assert.rejects(create({ template: { kind: 'restart_with_warnings' } }), /either 'steps' or 'template'/);
    await assert.rejects(
      create({ steps: [{ at_s: 0, action: 'rcon_say', payload: {} }] }),
      (err: ApiError) => err.code === 'VALIDATION_ERROR' && /steps/.test(err.message),
    );
  });
});

describe('schedules: run conditions', () => {
  let u: UnitContainer;
  let conditions: RunConditions;
  const players = new FakePlayers();
  let serverId: number;
  const schedule = (c: ScheduleRow['conditions']) => ({ id: 1, server_id: serverId, conditions: c }) as ScheduleRow;
  const setStatus = (status: string) => u.db.knex('servers').where({ id: serverId }).update({ status });
  beforeEach(async () => {
    u = await unitContainer({ fakes: [[PlayerService, players]] });
    conditions = u.resolve(RunConditions);
    serverId = (
      await u.resolve(ServerService).create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, SYSTEM_ACTOR)
    ).id;
    players.count = 0;
  });
  afterEach(() => u.close());

  it("says why a run does not happen: the server's state, too many or too few players", async () => {
    const never = new AbortController().signal;
    assert.match(
      (await conditions.unmet(schedule({ when_running: true }), never))!,
      /the server is stopped, and the schedule runs only while it runs/,
    );
    await setStatus('running');
    assert.equal(await conditions.unmet(schedule({ when_running: true }), never), null);
    players.count = 7;
    assert.equal(await conditions.unmet(schedule({ players_max: 5 }), never), '7 players are in, more than 5');
    assert.equal(await conditions.unmet(schedule({ players_min: 10 }), never), '7 players are in, fewer than 10');
    assert.equal(await conditions.unmet(schedule({ players_min: 7, players_max: 7 }), never), null);
  });

  it('holds the run until the conditions have held hold_s, and gives up when they stop holding', async () => {
    await setStatus('running');
    const held = conditions.unmet(schedule({ players_max: 0, hold_s: 30 }), new AbortController().signal);
    let settled = false;
    void held.then(() => (settled = true));
    await u.clock.advance(29_000);
    assert.equal(settled, false, 'still holding before 30 s');
    await u.clock.advance(1_000);
    assert.equal(await held, null);

    const broken = conditions.unmet(schedule({ players_max: 0, hold_s: 30 }), new AbortController().signal);
    await u.clock.advance(10_000);
    players.count = 1; // someone joins during the hold
    await u.clock.advance(5_000);
    assert.equal(await broken, '1 players are in, more than 0 (the conditions must hold 30 s)');
  });
});
