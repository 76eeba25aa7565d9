import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { ApiError } from '@garrison/core';
import { BattlEyeClient, decodeServerPacket, encodeLogin } from '@garrison/battleye';
import { parsePlayers } from '@garrison/adapter-gamea';
import { FakeRconServer, waitFor, type FakeRconServerOptions } from '../src/index.js';

const PASSWORD = 'Secret123';
const open: { close(): Promise<void> }[] = [];
after(async () => {
  for (const o of open.reverse()) await o.close();
});

async function server(options: Partial<FakeRconServerOptions> = {}) {
  const s = await FakeRconServer.start({ password: PASSWORD, ...options });
  open.push(s);
  return s;
}

async function client(port: number, options: Partial<Parameters<typeof BattlEyeClient.connect>[0]> = {}) {
  const c = await BattlEyeClient.connect({
    host: '127.0.0.1',
    port,
    password: PASSWORD,
    resendMs: 100,
    timeoutMs: 3000,
    loginTimeoutMs: 1000,
    ...options,
  });
  open.push(c);
  return c;
}

const isRconError = (pattern: RegExp) => (err: unknown) =>
  err instanceof ApiError && err.code === 'RCON_ERROR' && err.status === 503 && pattern.test(err.message);

const guid = (i: number) => i.toString(16).padStart(32, 'a');

describe('BattlEye client against the fake RCon server', () => {
  it('logs in and runs players, answered in the real format', async () => {
    const s = await server();
    s.join('Bravo17', guid(1), '10.0.0.5');
    const c = await client(s.port);
    const answer = await c.command('players');
    assert.match(
      answer,
      /^Players on server:\n\[#\] \[IP Address\]:\[Port\] \[Ping\] \[GUID\] \[Name\]\n-{50}\n0 {3}10\.0\.0\.5:2304 +30 +a{31}1\(OK\) Bravo17\n\(1 players in total\)$/,
    );
    assert.deepEqual(
      parsePlayers(answer).map((p) => p.name),
      ['Bravo17'],
    );
    assert.equal(await c.command('nonsense'), 'Unknown command');
  });

  it('refuses a wrong password and a server that refuses logins with RCON_ERROR', async () => {
    const s = await server();
    await assert.rejects(client(s.port, { password: 'wrong' }), isRconError(/password/));
    s.faults.refuseLogins = true;
    await assert.rejects(client(s.port), isRconError(/password/));
  });

  it('gives up on a silent port instead of hanging', async () => {
    const probe = createSocket('udp4');
    probe.bind(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = probe.address().port;
    probe.close(); // nothing listens there now
    await assert.rejects(client(port, { loginTimeoutMs: 400 }), isRconError(/no answer/));
  });

  it('reassembles multi-part answers, whatever order the parts arrive in', async () => {
    const s = await server({ chunkSize: 64, faults: { reverseParts: true } });
    for (let i = 0; i < 25; i += 1) s.join(`Player Nummer ${i} Ä`, guid(i));
    const c = await client(s.port);
    const players = parsePlayers(await c.command('players'));
    assert.equal(players.length, 25);
    assert.equal(players[24].name, 'Player Nummer 24 Ä');
  });

  it('survives lost datagrams: commands are resent and still run once', async () => {
    const s = await server({ chunkSize: 128, faults: { dropEveryNth: 3 } });
    for (let i = 0; i < 6; i += 1) s.join(`P${i}`, guid(i));
    const c = await client(s.port);
    for (let i = 0; i < 10; i += 1) assert.equal(parsePlayers(await c.command('players')).length, 6);
    await c.command('say -1 hello once');
    assert.equal(s.commands.filter((x) => x === 'say -1 hello once').length, 1, 'a resent command runs once');
  });

  it('times out a command whose answer comes too late, and succeeds when it may wait', async () => {
    const s = await server();
    const c = await client(s.port, { timeoutMs: 300 });
    s.faults.delayMs = 600;
    await assert.rejects(c.command('players'), isRconError(/no answer/));
    const patient = await client(s.port, { timeoutMs: 3000, resendMs: 1000 });
    assert.match(await patient.command('players'), /players in total/);
  });

  it('acknowledges server messages and delivers each once, even when they are resent', async () => {
    const s = await server({ messageRetryMs: 80, messageAttempts: 10 });
    const c = await client(s.port);
    const got: string[] = [];
    c.onMessage((m) => got.push(m));
    s.faults.dropEveryNth = 2;
    for (let i = 0; i < 5; i += 1) s.broadcast(`message ${i}`);
    await waitFor(() => got.filter((m) => m.startsWith('message')).length >= 5, { what: 'five messages' });
    s.faults.dropEveryNth = 0;
    assert.deepEqual(got.filter((m) => m.startsWith('message')).sort(), ['message 0', 'message 1', 'message 2', 'message 3', 'message 4']);
    assert.equal(s.connectedAdmins.length, 1, 'the client was not dropped for missing acknowledgements');
  });

  it('gets the join, GUID and leave messages of players', async () => {
    const s = await server();
    const c = await client(s.port);
    const got: string[] = [];
    c.onMessage((m) => got.push(m));
    const p = s.join('Fritz', guid(7), '10.1.1.1');
    s.leave(p.slot);
    await waitFor(() => got.some((m) => m.endsWith('disconnected')), { what: 'the leave message' });
    assert.deepEqual(got.slice(-4), [
      `Player #${p.slot} Fritz (10.1.1.1:2304) connected`,
      `Player #${p.slot} Fritz - BE GUID: ${guid(7)}`,
      `Verified GUID (${guid(7)}) of player #${p.slot} Fritz`,
      `Player #${p.slot} Fritz disconnected`,
    ]);
  });

  it('drops a client that never acknowledges messages, as BattlEye does', async () => {
    const s = await server({ messageRetryMs: 50, messageAttempts: 3 });
    const raw = createSocket('udp4');
    open.push({ close: () => new Promise<void>((r) => raw.close(() => r())) });
    raw.send(encodeLogin(PASSWORD), s.port, '127.0.0.1');
    const [reply] = await once(raw, 'message');
    assert.deepEqual(decodeServerPacket(reply as Buffer), { type: 'login-result', ok: true });
    assert.equal(s.connectedAdmins.length, 1);
    // The login message goes unacknowledged.
    await waitFor(() => s.connectedAdmins.length === 0, { what: 'the client to be dropped' });
  });

  it('keeps an idle login alive with empty commands', async () => {
    const s = await server({ idleTimeoutMs: 400 });
    const c = await client(s.port, { keepAliveMs: 150 });
    // Three keep-alives take longer than the 400 ms idle limit.
    await waitFor(() => s.keepAlives >= 3, { what: 'three keep-alives' });
    assert.deepEqual(
      s.connectedAdmins.map((a) => a.id),
      [0],
      'never dropped, never logged in anew',
    );
    assert.match(await c.command('admins'), /^Connected RCon admins:/);
  });

  it('wraps the sequence number past 255', async () => {
    const s = await server();
    const c = await client(s.port);
    for (let i = 0; i < 300; i += 1) assert.equal(await c.command(`say -1 n${i}`), '');
    assert.equal(s.commands.length, 300);
  });

  it('logs in again by itself after the server restarts', async () => {
    const first = await server();
    const c = await client(first.port);
    assert.match(await c.command('players'), /0 players/);
    const port = first.port;
    await first.close();
    const second = await server({ port });
    second.join('After', guid(9));
    assert.deepEqual(
      parsePlayers(await c.command('players')).map((p) => p.name),
      ['After'],
    );
  });

  it('rejects commands after close', async () => {
    const s = await server();
    const c = await client(s.port);
    await c.close();
    await assert.rejects(c.command('players'), isRconError(/closed/));
  });
});
