import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FakeClock } from '@garrison/server';
import { GarrisonClient } from '@garrison/sdk';
import { installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { onMysql, startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, isAlive, killGames, serverRecord, wsClient, type FakeInstall } from './games.js';

const STOP_TIMEOUT_MS = 30_000;
const BACKOFF_MS = 2000;
const GUID_A = 'a'.repeat(32);

/**
 * What the supervisor and the periodic jobs do when time passes (a stop time-out, an auto-restart's
 * back-off, a ban's expiry, the retention of history), on a fake clock: time moves when the test moves
 * it, so nothing here waits for it, and what must not happen early is seen not to.
 */
describe('supervision on a fake clock', () => {
  let h: Harness;
  let fake: FakeInstall;
  const clock = new FakeClock();
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startHarness({
      clock,
      stopTimeoutMs: STOP_TIMEOUT_MS,
      restartBackoffMs: BACKOFF_MS,
      readyTimeoutMs: 3_600_000,
      historyRetentionDays: 3,
      logRetentionDays: 1,
      metricsRetentionHours: 1,
      metricsIntervalMs: 5000,
      banExpiryCheckMs: 600_000,
    });
  });
  after(async () => {
    await killGames(h);
    await h.close();
    await fake.remove();
  });

  // Through the typed SDK, as an admin's tool or a viewer's would call the service.
  const admin = () => new GarrisonClient({ baseUrl: h.url, token: h.adminToken });
  const viewer = () => new GarrisonClient({ baseUrl: h.url, token: h.viewerToken });
  const rcon = (id: number, command: string) => admin().rcon.command(id, command);
  const becomes = (id: number, status: string) =>
    advanceUntil(
      clock,
      async () => {
        const r = await serverRecord(h, id);
        return r.status === status && r;
      },
      `server ${id} to be ${status}`,
    );
  const running = async (overrides: Record<string, unknown> = {}) => {
    const s = await createGameServer(h, fake, overrides);
    const { pid } = await admin().servers.start(s.id);
    await becomes(s.id, 'running');
    return { ...s, pid: pid };
  };

  it('kills a game that ignores the shutdown once the stop time-out has passed, and not before', async () => {
    const s = await running();
    try {
      await rcon(s.id, 'testkit.hang');
      const stopping = admin().servers.stop(s.id);
      // Once the stop waits on the clock for the game (a timer of the stop time-out), time moves on.
      await waitFor(() => clock.timers.some((t) => t.label === `exit of ${s.pid}` && t.inMs === STOP_TIMEOUT_MS), {
        what: 'the stop to wait for the game',
      });
      await clock.advance(STOP_TIMEOUT_MS - 5000);
      assert.ok(isAlive(s.pid), 'still given its time');
      assert.equal((await serverRecord(h, s.id)).status, 'stopping');
      await clock.advance(5000);
      assert.deepEqual(await stopping, { status: 'stopped' });
      assert.ok(!isAlive(s.pid));
      assert.equal((await admin().servers.events(s.id, { event_type: 'stop_timeout' })).total, 1);
    } finally {
      await killGames(h);
    }
  });

  it('marks a crash, and restarts with back-off up to max_restarts', async () => {
    const s = await running({ auto_restart: true, max_restarts: 1 });
    const ws = await wsClient(h.url, `/ws?token=${h.adminToken}`);
    try {
      await rcon(s.id, 'testkit.crash');
      await ws.next((m) => m.server_id === s.id && m.type === 'server_status' && m.data.status === 'crashed', 'crashed event');
      // Planned at the back-off; the step of fake time that saw the crash may already have run part of it.
      const restartPlanned = (t: { label?: string; inMs: number }) =>
        t.label === `supervisor.restart:${s.id}` && t.inMs > BACKOFF_MS - 2 * 250 && t.inMs <= BACKOFF_MS;
      await waitFor(() => clock.timers.some(restartPlanned), {
        what: 'the restart to wait out its back-off',
      });
      await clock.advance(BACKOFF_MS - 500);
      assert.equal((await serverRecord(h, s.id)).status, 'crashed', 'waiting out its back-off');
      const again = await advanceUntil(
        clock,
        async () => {
          const r = await serverRecord(h, s.id);
          return r.status === 'running' && r.pid !== s.pid && r;
        },
        'the automatic restart',
      );
      assert.equal(again.restart_count, 1);

      await rcon(s.id, 'testkit.crash'); // no restarts left
      await advanceUntil(clock, async () => (await serverRecord(h, s.id)).status === 'crashed', 'crashed again');
      await clock.advance(BACKOFF_MS * 10);
      assert.equal((await serverRecord(h, s.id)).status, 'crashed', 'no restart left');
      const trail = (await admin().servers.events(s.id)).events.map((e) => e.event_type);
      assert.deepEqual(trail.filter((t) => t === 'crashed' || t === 'auto_restart').reverse(), ['crashed', 'auto_restart', 'crashed']);

      // A manual start resets the count.
      await admin().servers.start(s.id);
      assert.equal((await becomes(s.id, 'running')).restart_count, 0);
    } finally {
      ws.close();
      await admin().servers.kill(s.id); // through the service: an outside kill would be a crash, and restarted
      await killGames(h);
    }
  });

  it('a database that fails while a crash is recorded is tried again: the crash is marked and its auto-restart planned', async () => {
    const s = await running({ auto_restart: true, max_restarts: 1 });
    // A real failure of the database, on the statement that marks the crash, until the test lifts it.
    await withDatabase(h, (knex) =>
      knex.raw(
        onMysql
          ? "CREATE TRIGGER crash_blip BEFORE UPDATE ON servers FOR EACH ROW BEGIN IF NEW.status = 'crashed' THEN SIGNAL " +
              "SQLSTATE '45000' SET MESSAGE_TEXT = 'database blip'; END IF; END"
          : "CREATE TRIGGER crash_blip BEFORE UPDATE OF status ON servers WHEN NEW.status = 'crashed' BEGIN SELECT RAISE(ABORT, " +
              "'database blip'); END",
      ),
    );
    let lifted = false;
    const lift = async () => {
      if (!lifted) await withDatabase(h, (knex) => knex.raw('DROP TRIGGER crash_blip'));
      lifted = true;
    };
    try {
      await rcon(s.id, 'testkit.crash');
      // The write failed and waits to be tried again: not taken for another change that came first.
      await waitFor(() => clock.timers.some((t) => t.label === `server state retry:${s.id}`), { what: 'the crash to be retried' });
      assert.equal((await serverRecord(h, s.id)).status, 'running', 'nothing written yet');
      await lift();
      await advanceUntil(clock, async () => (await serverRecord(h, s.id)).status === 'crashed', 'the crash to be marked on the retry');
      // Planned at the back-off; the step of fake time that saw the crash may already have run part of it.
      const restartPlanned = (t: { label?: string; inMs: number }) =>
        t.label === `supervisor.restart:${s.id}` && t.inMs > BACKOFF_MS - 2 * 250 && t.inMs <= BACKOFF_MS;
      await waitFor(() => clock.timers.some(restartPlanned), {
        what: 'the auto-restart to be planned',
      });
      const again = await advanceUntil(
        clock,
        async () => {
          const r = await serverRecord(h, s.id);
          return r.status === 'running' && r.pid !== s.pid && r;
        },
        'the automatic restart',
      );
      assert.equal(again.restart_count, 1);
      const trail = (await admin().servers.events(s.id)).events.map((e) => e.event_type);
      assert.deepEqual(trail.filter((t) => t === 'crashed' || t === 'auto_restart').reverse(), ['crashed', 'auto_restart']);
    } finally {
      await lift();
      await admin()
        .servers.kill(s.id)
        .catch(() => undefined);
      await killGames(h);
    }
  });

  it('ends a timed ban when its time comes: gone from the list and the ban file, and not before', async () => {
    const s = await createGameServer(h, fake);
    const file = () => readFile(join(h.dataDir, 'servers', String(s.id), 'battleye', 'bans.txt'), 'utf8').catch(() => '');
    const listed = async () => (await viewer().bans.list(s.id)).map((b) => b.guid);
    await admin().bans.create(s.id, { player_uid: GUID_A, duration_minutes: 90 });
    assert.match(await file(), new RegExp(GUID_A));
    await clock.advance(89 * 60_000);
    assert.deepEqual(await listed(), [GUID_A], 'a minute left');
    await clock.advance(61_000); // a second over: MySQL keeps whole seconds, and may round the expiry up
    assert.deepEqual(await listed(), []);
    await advanceUntil(clock, async () => !(await file()).includes(GUID_A), 'the expired ban to leave the ban file', 60_000);
  });

  // Up to 150 s: each step of the fake clock runs the jobs and a few queries; a busy CI machine took over 60.
  it('keeps history, log lines and metrics only as long as their retention says', { timeout: 150_000 }, async () => {
    const s = await running();
    try {
      await rcon(s.id, 'testkit.log info stamped at the start');
      await advanceUntil(clock, async () => (await viewer().logs.list(s.id, { search: 'stamped' })).total === 1, 'the line stored');
      await advanceUntil(clock, async () => (await viewer().metrics.get(s.id)).length > 0, 'a metrics sample');
      const count = (table: string) =>
        withDatabase(h, async (knex) => Number((await knex(table).where('server_id', s.id).count({ n: '*' }))[0].n));
      assert.ok((await count('audit_entries')) > 0);
      await admin().servers.kill(s.id);

      // Metrics go after an hour, log lines after a day, the audit trail after three days.
      await clock.advance(2 * 3_600_000);
      await advanceUntil(clock, async () => (await count('metrics')) === 0, 'old metrics pruned', 60_000);
      assert.ok((await count('log_lines')) > 0);
      await clock.advance(86_400_000);
      await advanceUntil(clock, async () => (await count('log_lines')) === 0, 'old log lines pruned', 60_000);
      assert.ok((await count('audit_entries')) > 0);
      await clock.advance(2 * 86_400_000);
      await advanceUntil(clock, async () => (await count('audit_entries')) === 0, 'old audit entries pruned', 3_600_000);
    } finally {
      await killGames(h);
    }
  });
});
