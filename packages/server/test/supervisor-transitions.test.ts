import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '@garrison/server';
import { GarrisonClient } from '@garrison/sdk';
import { installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { onMysql, startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, createGameServer, killGames, serverRecord, wsClient, type FakeInstall } from './games.js';

/**
 * A transition of the supervisor (a crash, a game found ready) and its audit entry are one transaction:
 * both are written, or neither. The database itself refuses the entry (a trigger) until the test lifts
 * it; meanwhile the state must not have moved either, and once lifted the retry writes both, the entry
 * once, and a live client hears the status before the entry, as it always has.
 */
describe('a supervisor transition and its audit entry, in one transaction', () => {
  let h: Harness;
  let fake: FakeInstall;
  const clock = new FakeClock();
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startHarness({ clock, readyTimeoutMs: 3_600_000 });
  });
  after(async () => {
    await killGames(h);
    await h.close();
    await fake.remove();
  });

  const admin = () => new GarrisonClient({ baseUrl: h.url, token: h.adminToken });
  const entries = async (id: number, type: 'crashed' | 'running') => (await admin().servers.events(id, { event_type: type })).events;
  const status = async (id: number) => (await serverRecord(h, id)).status as string;
  const retrying = (id: number) => clock.timers.some((t) => t.label === `server state retry:${id}`);

  /** A real failure of the database on the insert of an entry of this type, until the returned function lifts it. */
  async function refuseEntries(type: string): Promise<() => Promise<void>> {
    await withDatabase(h, (knex) =>
      knex.raw(
        onMysql
          ? `CREATE TRIGGER audit_blip BEFORE INSERT ON audit_entries FOR EACH ROW BEGIN IF NEW.event_type = '${type}' THEN ` +
              "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'database blip'; END IF; END"
          : `CREATE TRIGGER audit_blip BEFORE INSERT ON audit_entries WHEN NEW.event_type = '${type}' BEGIN SELECT RAISE(ABORT, ` +
              "'database blip'); END",
      ),
    );
    let lifted = false;
    return async () => {
      if (!lifted) await withDatabase(h, (knex) => knex.raw('DROP TRIGGER audit_blip'));
      lifted = true;
    };
  }

  it('a crash whose entry cannot be written is not marked either; the retry writes both, the entry once', async () => {
    const s = await createGameServer(h, fake, { auto_restart: false });
    const { pid } = await admin().servers.start(s.id);
    await advanceUntil(clock, async () => (await status(s.id)) === 'running', 'the game to be running');
    const ws = await wsClient(h.url, `/ws?server_id=${s.id}&token=${h.adminToken}`);
    const lift = await refuseEntries('crashed');
    try {
      ws.send({ type: 'subscribe', channels: ['event'] });
      await ws.next((m) => m.type === 'subscribed' && m.data.channels.includes('event'), 'subscribed to the trail');
      await admin().rcon.command(s.id, 'testkit.crash');
      // Tried again, or (were the entry written apart) marked without it: which one, the assertions say.
      await waitFor(async () => retrying(s.id) || (await status(s.id)) !== 'running', { what: 'the crash to be handled' });
      assert.equal(await status(s.id), 'running', 'the crash is not marked without its entry');
      assert.deepEqual(await entries(s.id, 'crashed'), [], 'nor its entry written without it');
      const crashedNews = (m: { type: string; data: { status?: string; event_type?: string } }) =>
        (m.type === 'server_status' && m.data.status === 'crashed') || (m.type === 'event' && m.data.event_type === 'crashed');
      assert.equal(ws.messages.filter(crashedNews).length, 0, 'and nothing told of a transaction rolled back');

      await lift();
      await advanceUntil(clock, async () => (await status(s.id)) === 'crashed', 'the crash to be marked on the retry');
      const written = await entries(s.id, 'crashed');
      assert.equal(written.length, 1, 'one entry: the attempts that failed wrote none');
      assert.equal(written[0].detail.pid, pid);
      await ws.next((m) => m.type === 'event' && m.data.event_type === 'crashed', 'the entry on the socket');
      assert.deepEqual(
        ws.messages.filter(crashedNews).map((m) => m.type),
        ['server_status', 'event'],
        'the status, then the entry that explains it, each once',
      );
    } finally {
      await lift();
      ws.close();
      await killGames(h);
    }
  });

  it('a game found ready whose entry cannot be written stays starting; the retry makes it running with its entry', async () => {
    const s = await createGameServer(h, fake, { auto_restart: false });
    const lift = await refuseEntries('running');
    try {
      const { pid } = await admin().servers.start(s.id);
      await advanceUntil(clock, async () => retrying(s.id) || (await status(s.id)) !== 'starting', 'the readiness probe to pass');
      assert.equal(await status(s.id), 'starting', 'not running without its entry');
      assert.deepEqual(await entries(s.id, 'running'), []);
      await lift();
      await advanceUntil(clock, async () => (await status(s.id)) === 'running', 'running on the retry');
      assert.deepEqual(
        (await entries(s.id, 'running')).map((e) => e.detail.pid),
        [pid],
      );
    } finally {
      await lift();
      await killGames(h);
    }
  });
});
