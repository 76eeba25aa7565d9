import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { FakeRconServer, waitFor } from '@garrison/testkit';
import { createServer, expectError, setStatus, startHarness, type Harness } from './helpers.js';

describe('remote admin commands', () => {
  let h: Harness;
  const fakes: FakeRconServer[] = [];
  before(async () => {
    h = await startHarness({ plugins: [fileURLToPath(new URL('./fixtures/minimal-adapter.ts', import.meta.url))] });
  });
  after(async () => {
    await h.close();
    for (const f of fakes) await f.close();
  });

  /** A server marked running, with a fake BattlEye answering on its RCon port and password. */
  async function runningServer() {
    const s = await createServer(h);
    await setStatus(h, s.id, 'running');
    const rcon = await FakeRconServer.start({ password: s.rcon_password, port: s.rcon_port });
    fakes.push(rcon);
    return { s, rcon };
  }
  const command = (id: number, cmd: string, token = h.adminToken) =>
    h.api('POST', `/servers/${id}/rcon/command`, { token, body: { command: cmd } });

  it('runs a command on the game and answers its text', async () => {
    const { s, rcon } = await runningServer();
    rcon.join('Bravo17', 'a'.repeat(32), '10.0.0.5');
    const res = await command(s.id, 'players');
    assert.equal(res.status, 200);
    assert.match(res.body.data.response, /^Players on server:[\s\S]*Bravo17\n\(1 players in total\)$/);
    assert.deepEqual((await command(s.id, 'say -1 Server restarting')).body.data, { response: '' });
    assert.deepEqual(rcon.commands, ['players', 'say -1 Server restarting']);
  });

  it('keeps each command with its arguments in the audit trail, a password it sets replaced by ***', async () => {
    const { s } = await runningServer();
    await command(s.id, 'say -1 Restart in 5 minutes');
    await command(s.id, 'RConPassword hunter2-secret');
    await command(s.id, '#login my admin pass');
    const entries = async () =>
      (await h.api('GET', `/servers/${s.id}/events?event_type=command`, { token: h.adminToken })).body.data.events
        .map((e: { detail: unknown }) => e.detail)
        .reverse();
    const kept = await waitFor(async () => ((await entries()).length === 3 ? entries() : null), { what: 'three audit entries' });
    assert.deepEqual(kept, [
      { command: 'say', line: 'say -1 Restart in 5 minutes' },
      { command: 'RConPassword', line: 'RConPassword ***' },
      { command: '#login', line: '#login ***' },
    ]);
    assert.ok(!JSON.stringify(kept).includes('hunter2'), 'the password is nowhere');
  });

  it('keeps working after the game restarts its RCon, and follows a password change', async () => {
    const { s, rcon } = await runningServer();
    assert.equal((await command(s.id, 'players')).status, 200);
    await rcon.close();
    const again = await FakeRconServer.start({ password: 'ChangedPass9', port: s.rcon_port });
    fakes.push(again);
    const rconSection = (await h.api('GET', `/servers/${s.id}/config/rcon`, { token: h.adminToken })).body.data;
    await h.api('PUT', `/servers/${s.id}/config/rcon`, {
      token: h.adminToken,
      body: { rcon_password: 'ChangedPass9', config_version: rconSection._meta.config_version },
    });
    const res = await command(s.id, 'players');
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  it('answers 503 RCON_ERROR when the game does not answer, never hanging', async () => {
    const s = await createServer(h);
    await setStatus(h, s.id, 'running');
    const started = Date.now();
    const error = expectError(await command(s.id, 'players'), 503, 'RCON_ERROR');
    assert.match(error.message, /no answer/);
    assert.ok(Date.now() - started < 10_000);
  });

  it('answers 503 RCON_ERROR when the game refuses the password', async () => {
    const { s, rcon } = await runningServer();
    rcon.faults.refuseLogins = true;
    expectError(await command(s.id, 'players'), 503, 'RCON_ERROR');
  });

  it('answers 409 SERVER_NOT_RUNNING for a stopped or crashed server', async () => {
    const s = await createServer(h);
    expectError(await command(s.id, 'players'), 409, 'SERVER_NOT_RUNNING');
    await setStatus(h, s.id, 'crashed');
    expectError(await command(s.id, 'players'), 409, 'SERVER_NOT_RUNNING');
  });

  it('answers 400 NO_RCON_PASSWORD when remote admin is off or has no password', async () => {
    const s = await createServer(h);
    await setStatus(h, s.id, 'running');
    await h.api('PUT', `/servers/${s.id}/config/rcon`, { token: h.adminToken, body: { enabled: 0, config_version: 1 } });
    expectError(await command(s.id, 'players'), 400, 'NO_RCON_PASSWORD');
    await h.api('PUT', `/servers/${s.id}/config/rcon`, { token: h.adminToken, body: { enabled: 1, rcon_password: '', config_version: 2 } });
    expectError(await command(s.id, 'players'), 400, 'NO_RCON_PASSWORD');
  });

  it('answers 400 NOT_SUPPORTED for a game without remote admin, and 404 for no server', async () => {
    const s = await createServer(h, { game_type: 'gamez', exe_path: '/srv/gamez/gamezd' });
    expectError(await command(s.id, 'players'), 400, 'NOT_SUPPORTED');
    expectError(await command(999999, 'players'), 404, 'NOT_FOUND');
  });

  it('keeps commands to admins and to one line of text', async () => {
    const { s } = await runningServer();
    expectError(await command(s.id, 'players', h.viewerToken), 403, 'FORBIDDEN');
    for (const bad of ['', 'players\n#shutdown', 'x'.repeat(4097)]) expectError(await command(s.id, bad), 400, 'VALIDATION_ERROR');
  });
});
