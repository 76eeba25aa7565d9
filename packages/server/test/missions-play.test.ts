import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FakeRconServer, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { createServer, expectError, setStatus, startHarness, type Harness } from './helpers.js';

type FakeInstall = Awaited<ReturnType<typeof installFakeGameaTemp>>;

describe("play a mission now, and a message to every player: the game's own commands, audited", () => {
  let h: Harness;
  let fake: FakeInstall;
  const fakes: FakeRconServer[] = [];
  before(async () => {
    h = await startHarness();
    fake = await installFakeGameaTemp();
    await writeFile(join(fake.dir, 'mpmissions', 'co10_Escape.Altis.pbo'), 'mission');
  });
  after(async () => {
    await h.close();
    for (const f of fakes) await f.close();
    await fake.remove();
  });

  /** A server of the fake installation marked running, a fake BattlEye on its RCon port recording what it is sent. */
  async function runningServer() {
    const s = await createServer(h, { exe_path: fake.exePath });
    await setStatus(h, s.id, 'running');
    const rcon = await FakeRconServer.start({ password: s.rcon_password, port: s.rcon_port });
    fakes.push(rcon);
    return { s, rcon };
  }
  const play = (id: number, body: Record<string, unknown>, token = h.adminToken) =>
    h.api('POST', `/servers/${id}/missions/play`, { token, body });
  const audit = async (id: number, type: string) =>
    waitFor(
      async () => {
        const events = (await h.api('GET', `/servers/${id}/events?event_type=${type}`, { token: h.adminToken })).body.data.events;
        return events.length > 0 && events;
      },
      { what: `a ${type} audit entry` },
    );

  it('plays an installed mission in the command the adapter names, with the difficulty, and audits it', async () => {
    const { s, rcon } = await runningServer();
    const res = await play(s.id, { name: 'co10_Escape.Altis', difficulty: 'veteran' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { message: 'playing co10_Escape.Altis (Veteran)', name: 'co10_Escape.Altis', difficulty: 'Veteran' });
    assert.deepEqual(rcon.commands, ['#mission co10_Escape.Altis Veteran']);
    const [entry] = await audit(s.id, 'mission_played');
    assert.deepEqual(
      [entry.detail, entry.actor, entry.actor_kind],
      [{ name: 'co10_Escape.Altis', difficulty: 'Veteran' }, 'admin', 'user'],
    );

    assert.equal((await play(s.id, { name: 'co10_Escape.Altis' })).status, 200);
    assert.equal(rcon.commands.at(-1), '#mission co10_Escape.Altis', "no difficulty: the server's own");
  });

  it(
    'refuses a mission not installed (404), a difficulty the game has not (400), a viewer (403), a stopped server (409); sends ' +
      'nothing then',
    async () => {
      const { s, rcon } = await runningServer();
      assert.match(expectError(await play(s.id, { name: 'co99_Nothing.Altis' }), 404, 'NOT_FOUND').message, /co99_Nothing\.Altis/);
      assert.equal(
        expectError(await play(s.id, { name: 'co10_Escape.Altis', difficulty: 'Nightmare' }), 400, 'VALIDATION_ERROR').message,
        `field 'difficulty': "Nightmare" is none of "", "Recruit", "Regular", "Veteran", "Custom" (in any case)`,
      );
      assert.equal(
        expectError(await play(s.id, { name: 'co10_Escape.Altis', size: 'large' }), 400, 'VALIDATION_ERROR').message,
        "unknown field 'size'",
        'an option the game has not',
      );
      expectError(await play(s.id, { name: 'co10_Escape.Altis' }, h.viewerToken), 403, 'FORBIDDEN');
      expectError(await play(s.id, {}), 400, 'VALIDATION_ERROR');
      assert.deepEqual(rcon.commands, []);
      await setStatus(h, s.id, 'stopped');
      expectError(await play(s.id, { name: 'co10_Escape.Altis' }), 409, 'SERVER_NOT_RUNNING');
    },
  );

  it("a schedule's set_mission: its options checked by the game's rule when saved (400 naming the field), sent normalised", async () => {
    const { s, rcon } = await runningServer();
    const schedule = (payload: Record<string, unknown>) =>
      h.api('POST', `/servers/${s.id}/schedules`, {
        token: h.adminToken,
        body: { name: 'Mission', cron: '0 0 1 1 *', steps: [{ at_s: 0, action: 'set_mission', payload }] },
      });
    assert.equal(
      expectError(await schedule({ name: 'co10_Escape.Altis', difficulty: 'Hard' }), 400, 'VALIDATION_ERROR').message,
      `field 'steps[0].payload.difficulty': "Hard" is none of "", "Recruit", "Regular", "Veteran", "Custom" (in any case)`,
    );
    assert.equal(
      expectError(await schedule({ name: 'co10_Escape.Altis', size: 'large' }), 400, 'VALIDATION_ERROR').message,
      "unknown field 'steps[0].payload.size'",
    );
    const saved = await schedule({ name: 'co10_Escape.Altis', difficulty: 'veteran' });
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    const run = await h.api('POST', `/servers/${s.id}/schedules/${saved.body.data.id}/run`, { token: h.adminToken });
    assert.equal(run.status, 202, JSON.stringify(run.body));
    await waitFor(() => rcon.commands.length > 0, { what: 'the mission command' });
    assert.deepEqual(rcon.commands, ['#mission co10_Escape.Altis Veteran'], 'the difficulty as the game stores it');
  });

  it('says a message to every player through rcon/say, audited', async () => {
    const { s, rcon } = await runningServer();
    const res = await h.api('POST', `/servers/${s.id}/rcon/say`, { token: h.adminToken, body: { message: 'Restart in 10 minutes' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(rcon.commands, ['say -1 Restart in 10 minutes']);
    const [entry] = await audit(s.id, 'command');
    assert.deepEqual(entry.detail, { command: 'say', message: 'Restart in 10 minutes' });
    expectError(await h.api('POST', `/servers/${s.id}/rcon/say`, { token: h.viewerToken, body: { message: 'x' } }), 403, 'FORBIDDEN');
  });
});
