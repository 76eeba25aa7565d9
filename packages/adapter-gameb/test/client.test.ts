import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ApiError } from '@garrison/core';
import gameb, { SourceRconClient } from '../src/index.js';
import { DROP, FakeSourceServer, rawPacket } from './source-server.js';

const isRconError = (pattern: RegExp) => (err: unknown) =>
  err instanceof ApiError && err.code === 'RCON_ERROR' && pattern.test(err.message);

/** Polls until `check` holds, or fails after `ms`: no fixed sleeps. */
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Source RCON client against a TCP server speaking the protocol', () => {
  const servers: FakeSourceServer[] = [];
  const clients: SourceRconClient[] = [];
  const start = async (options: Parameters<typeof FakeSourceServer.start>[0]) => {
    const server = await FakeSourceServer.start(options);
    servers.push(server);
    return server;
  };
  const connect = async (server: FakeSourceServer, password = server.options.password, timeoutMs = 2000) => {
    const client = await SourceRconClient.connect({ host: '127.0.0.1', port: server.port, password, timeoutMs, connectTimeoutMs: 2000 });
    clients.push(client);
    return client;
  };
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('logs in past the empty RESPONSE_VALUE sent before the AUTH_RESPONSE, and runs a command', async () => {
    const server = await start({ password: 'pw', answer: (c) => (c === 'echo hi' ? 'hi\n' : '') });
    const client = await connect(server);
    assert.equal(await client.command('echo hi'), 'hi\n');
    // The command, then the empty RESPONSE_VALUE whose echo ends the answer.
    const [auth, exec, marker] = server.received;
    assert.deepEqual([auth.type, auth.body, exec.type, exec.body, marker.type, marker.body], [3, 'pw', 2, 'echo hi', 0, '']);
    assert.notEqual(exec.id, marker.id);
  });

  it('reports a wrong password (AUTH_RESPONSE id -1) as RCON_ERROR', async () => {
    const server = await start({ password: 'right' });
    await assert.rejects(connect(server, 'wrong'), isRconError(/wrong RCon password/));
  });

  it('reports a closed port as RCON_ERROR', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await assert.rejects(
      SourceRconClient.connect({ host: '127.0.0.1', port, password: 'x', connectTimeoutMs: 2000 }),
      isRconError(/cannot reach/),
    );
  });

  it('gathers an answer split over 3 packets of 4096 bytes, arriving in odd TCP chunks, up to the echo of the end marker', async () => {
    const long = Array.from({ length: 3 * 4096 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const server = await start({
      password: 'pw',
      answer: (c) => (c === 'cvarlist' ? long : 'short'),
      // 1000-byte pieces: packets split across writes, and several packet ends within one.
      chunk: (bytes) => Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000)),
    });
    const client = await connect(server);
    const answer = await client.command('cvarlist');
    assert.equal(answer.length, 3 * 4096);
    assert.equal(answer, long);
    // The odd packet srcds sends after the mirrored marker does not leak into the next answer.
    assert.equal(await client.command('next'), 'short');
  });

  it('decodes an answer whole, when a packet boundary falls inside a UTF-8 character', async () => {
    // 4095 bytes of ASCII, then `ü` (2 bytes): the server's 4096-byte cut splits it between two packets.
    const answer = 'a'.repeat(4095) + 'ü Spieler ✓';
    const server = await start({ password: 'pw', answer: () => answer });
    const client = await connect(server);
    assert.equal(await client.command('users'), answer);
  });

  it('is ready once RCON takes the password (the readiness probe)', async () => {
    const server = await start({ password: 'pw' });
    const isReady = gameb.capabilities.process_config.isReady;
    const ctx = (port: number) => ({
      server: { id: 1, name: 'b', exe_path: '/srv/gameb/gamebserver', game_port: port, rcon_port: port },
      serverDir: '/tmp/b',
      exeDir: '/srv/gameb',
    });
    assert.equal(await isReady({ rcon: { rcon_password: 'pw' } }, ctx(server.port)), true);
    assert.equal(await isReady({ rcon: { rcon_password: 'nope' } }, ctx(server.port)), false);
    const port = server.port;
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    assert.equal(await isReady({ rcon: { rcon_password: 'pw' } }, ctx(port)), false);
  });

  it('runs commands one at a time, each getting its own answer, in the order given', async () => {
    const server = await start({ password: 'pw', answer: (c) => `answer to ${c}` });
    const client = await connect(server);
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((c) => client.command(c)));
    assert.deepEqual(answers, ['answer to a', 'answer to b', 'answer to c', 'answer to d']);
    const commands = server.received.filter((p) => p.type === 2).map((p) => p.body);
    assert.deepEqual(commands, ['a', 'b', 'c', 'd']);
  });

  it('rejects a command the server never answers after the time-out, then connects anew for the next', async () => {
    const server = await start({ password: 'pw', answer: (c) => (c === 'hang' ? null : `ok ${c}`) });
    const client = await connect(server, 'pw', 300);
    const started = Date.now();
    await assert.rejects(client.command('hang'), isRconError(/no whole answer to RCON command "hang"/));
    assert.ok(Date.now() - started < 2000, 'rejected near the time-out, not hung');
    assert.equal(await client.command('after'), 'ok after');
    assert.equal(server.connections, 2);
  });

  it('rejects the pending command when the connection drops, and the next command connects again', async () => {
    const server = await start({ password: 'pw', answer: (c) => (c === 'crash' ? DROP : `ok ${c}`) });
    const client = await connect(server);
    await assert.rejects(client.command('crash'), isRconError(/closed|failed/));
    assert.equal(await client.command('status'), 'ok status');
    // A game that restarted: the connection is gone between two commands.
    server.dropAll();
    await until(() => server.connections === 2 && server.openConnections === 0);
    assert.equal(await client.command('again'), 'ok again');
    assert.equal(server.connections, 3);
  });

  it('rejects later commands with RCON_ERROR while the server is down', async () => {
    const server = await start({ password: 'pw' });
    const client = await connect(server);
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    await assert.rejects(client.command('status'), isRconError(/./));
    await assert.rejects(client.command('status'), isRconError(/cannot reach/));
  });

  it('closes the connection when the server sends a packet size outside the protocol', async () => {
    const bad = createServer((socket) => {
      socket.on('data', () => {
        const header = Buffer.alloc(12);
        header.writeInt32LE(1_000_000, 0);
        socket.write(Buffer.concat([rawPacket(1, 0, ''), rawPacket(1, 2, '')]));
        socket.once('data', () => socket.write(header));
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
    try {
      const client = await SourceRconClient.connect({ host: '127.0.0.1', port: (bad.address() as AddressInfo).port, password: 'x' });
      clients.push(client);
      await assert.rejects(client.command('status'), isRconError(/does not speak Source RCON/));
    } finally {
      bad.close();
    }
  });

  it('refuses every command after close(), and a command too long for one packet', async () => {
    const server = await start({ password: 'pw' });
    const client = await connect(server);
    await assert.rejects(
      client.command('say ' + 'x'.repeat(5000)),
      (err: unknown) => err instanceof ApiError && err.code === 'VALIDATION_ERROR',
    );
    await client.close();
    await assert.rejects(client.command('status'), isRconError(/closed/));
    assert.equal(typeof client.onMessage(() => {}), 'function');
  });
});
