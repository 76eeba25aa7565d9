import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectRcon, waitFor } from '@garrison/testkit';
import { expectError, startHarness, type Harness } from './helpers.js';
import {
  gameService,
  FAST_SUPERVISION,
  createGameServer,
  runningGameServer,
  killGames,
  serverRecord,
  statusBecomes,
  wsClient,
} from './games.js';

describe('live data: the game log and its metrics', () => {
  const suite = gameService({
    ...FAST_SUPERVISION,
    playersPollMs: 300,
    metricsIntervalMs: 200,
    logLinesPerSecond: 400,
    logRetentionLines: 1000,
  });

  const post = (id: number, action: string, body?: unknown) =>
    suite.h.api('POST', `/servers/${id}/${action}`, { token: suite.h.adminToken, body });
  const command = (id: number, text: string) => post(id, 'rcon/command', { command: text });
  const logs = (id: number, query = '', token = suite.h.viewerToken) => suite.h.api('GET', `/servers/${id}/logs${query}`, { token });

  const running = () => runningGameServer(suite.h, suite.fake);

  it("parses, stores and streams the game's lines once each, with levels; filters and clears them", async () => {
    const s = await running();
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      await command(s.id, 'testkit.log warning disk nearly full');
      await command(s.id, 'testkit.log error script failed');
      const event = await ws.next((m) => m.type === 'log' && m.data.message.includes('disk nearly full'), 'the log event');
      assert.equal(event.data.level, 'warning');
      assert.ok(Date.parse(event.data.timestamp));

      const found = await waitFor(
        async () => {
          const res = await logs(s.id, '?search=nearly%20full');
          return res.body.data.total > 0 && res.body.data;
        },
        { what: 'the stored line' },
      );
      assert.equal(found.total, 1, `written to stdout and to the .rpt, stored once: ${JSON.stringify(found.logs)}`);
      assert.deepEqual(Object.keys(found.logs[0]).sort(), ['id', 'level', 'message', 'timestamp']);
      const errors = await waitFor(
        async () => {
          const page = (await logs(s.id, '?level=error')).body.data;
          return page.logs.some((l: { message: string }) => l.message.includes('script failed')) && page;
        },
        { what: 'the error line stored' },
      );
      assert.ok(errors.logs.every((l: { level: string }) => l.level === 'error'));
      assert.equal((await logs(s.id, `?since=${new Date(Date.now() + 60_000).toISOString()}`)).body.data.total, 0);
      assert.equal((await logs(s.id, '?search=100%25_')).body.data.total, 0, 'wildcards are searched for as text');
      expectError(await logs(s.id, '?level=loud'), 400, 'VALIDATION_ERROR');
      expectError(await logs(s.id, '?since=yesterday'), 400, 'VALIDATION_ERROR');

      expectError(await suite.h.api('DELETE', `/servers/${s.id}/logs`, { token: suite.h.viewerToken }), 403, 'FORBIDDEN');
      assert.equal((await suite.h.api('DELETE', `/servers/${s.id}/logs`, { token: suite.h.adminToken })).status, 200);
      const left = (await logs(s.id)).body.data;
      assert.ok(left.logs.every((l: { message: string }) => !l.message.includes('nearly full')));
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('samples CPU and memory into the record, the history and metrics events; null without a process', async () => {
    const s = await running();
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      const metric = await ws.next((m) => m.type === 'metrics', 'a metrics event');
      assert.deepEqual(Object.keys(metric.data).sort(), ['cpu_percent', 'player_count', 'ram_mb', 'timestamp']);
      assert.ok(metric.data.ram_mb > 1);
      const record = await waitFor(
        async () => {
          const r = await serverRecord(suite.h, s.id);
          return typeof r.cpu_percent === 'number' && r;
        },
        { what: 'live figures on the record' },
      );
      assert.ok(record.ram_mb > 1);
      const listed = (await suite.h.api('GET', '/servers', { token: suite.h.viewerToken })).body.data.find(
        (x: { id: number }) => x.id === s.id,
      );
      assert.equal(typeof listed.cpu_percent, 'number');

      const points = await waitFor(
        async () => {
          const res = await suite.h.api('GET', `/servers/${s.id}/metrics`, { token: suite.h.viewerToken });
          return res.body.data.length >= 3 && res.body.data;
        },
        { what: 'three stored samples' },
      );
      assert.deepEqual(Object.keys(points[0]).sort(), ['cpu_percent', 'player_count', 'ram_mb', 'timestamp']);
      const perMinute = (
        await suite.h.api('GET', `/servers/${s.id}/metrics?resolution=1&from=${new Date(Date.now() - 600_000).toISOString()}`, {
          token: suite.h.viewerToken,
        })
      ).body.data;
      assert.ok(perMinute.length >= 1 && perMinute.length <= 2, `${perMinute.length} one-minute points`);
      expectError(
        await suite.h.api('GET', `/servers/${s.id}/metrics?resolution=0`, { token: suite.h.viewerToken }),
        400,
        'VALIDATION_ERROR',
      );

      await post(s.id, 'stop');
      const stopped = await serverRecord(suite.h, s.id);
      assert.deepEqual([stopped.cpu_percent, stopped.ram_mb, stopped.player_count], [null, null, null]);
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('counts 0 players once the game has answered its first poll, and says so with a players event', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      assert.equal((await post(s.id, 'start')).status, 200);
      // Nobody plays: the first answer still turns the unknown count (null) into 0, for the console's cards.
      const first = await ws.next((m) => m.type === 'players', 'the first players event', 30_000);
      assert.deepEqual(first.data, { players: [], count: 0 });
      assert.equal((await serverRecord(suite.h, s.id)).player_count, 0);
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('throttles a flood of lines, with a notice of how many were dropped, within the retention bound', async () => {
    const s = await running();
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      const count = 3000;
      await command(s.id, `testkit.flood ${count} 100`);
      const notice = await ws.next((m) => m.type === 'log' && /log lines dropped/.test(m.data.message), 'the throttle notice');
      assert.equal(notice.data.level, 'warning');
      // What the client got, plus what the notices say was dropped, is the whole flood: nothing else is lost.
      await waitFor(
        () => {
          const floods = ws.messages.filter((m) => m.type === 'log' && m.data.message.startsWith('flood ')).length;
          const dropped = ws.messages
            .filter((m) => m.type === 'log' && /log lines dropped/.test(m.data.message))
            .reduce((sum, m) => sum + Number(/^Garrison: (\d+)/.exec(m.data.message)![1]), 0);
          return floods + dropped === count;
        },
        { timeoutMs: 30_000, what: 'every flood line delivered or counted as dropped' },
      );
      await waitFor(async () => (await logs(s.id, '?limit=1')).body.data.total <= 1000, { what: 'the retention bound of 1000 lines' });
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('drops, and counts, what a client that stopped reading cannot take; the others get everything', async () => {
    const own = await startHarness({ ...FAST_SUPERVISION, logLinesPerSecond: 1_000_000 });
    const s = await createGameServer(own, suite.fake);
    await own.api('POST', `/servers/${s.id}/start`, { token: own.adminToken });
    await statusBecomes(own, s.id, 'running');
    const fast = await wsClient(own.url, `/ws?token=${own.viewerToken}&server_id=${s.id}`);
    // A client that completes the handshake and then never reads.
    const slow = connect(Number(new URL(own.url).port), '127.0.0.1');
    slow.on('error', () => {});
    slow.write(
      `GET /ws?token=${own.viewerToken} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    slow.pause();
    try {
      await waitFor(() => own.server.webSocketStats().clients >= 2, { what: 'both clients connected' });
      const count = 2500; // 10 MB: more than the kernel's socket buffers hold for the slow client
      await own.api('POST', `/servers/${s.id}/rcon/command`, { token: own.adminToken, body: { command: `testkit.flood ${count} 4000` } });
      await waitFor(() => fast.messages.filter((m) => m.type === 'log' && m.data.message.startsWith('flood ')).length === count, {
        timeoutMs: 30_000,
        what: 'every line on the client that reads',
      });
      assert.ok(own.server.webSocketStats().dropped > 0, "the slow client's messages were dropped, not queued without end");
    } finally {
      slow.destroy();
      fast.close();
      await killGames(own);
      await own.close();
    }
  });

  it('reads what a game wrote while the service was down, after re-adopting it', async () => {
    const own = await startHarness({ ...FAST_SUPERVISION });
    let again: Harness | null = null;
    try {
      const s = await createGameServer(own, suite.fake);
      await own.api('POST', `/servers/${s.id}/start`, { token: own.adminToken });
      await statusBecomes(own, s.id, 'running');
      await own.server.close();
      const client = await connectRcon({ host: '127.0.0.1', port: s.rcon_port, password: s.rcon_password });
      await client.command('testkit.log info written while nobody listened');
      await client.close();
      again = await startHarness({ ...FAST_SUPERVISION, dataDir: own.dataDir, databaseUrl: own.databaseUrl });
      const res = await waitFor(
        async () => {
          const r = await again!.api('GET', `/servers/${s.id}/logs?search=nobody%20listened`, { token: again!.adminToken });
          return r.body.data.total === 1 && r;
        },
        { what: 'the line written while the service was down' },
      );
      assert.equal(res.body.data.logs[0].level, 'info');
    } finally {
      await killGames(again ?? own);
      await again?.close();
      await own.close();
    }
  });

  it("resumes the game's log file where an older version's offsets (its key `rpt`) say, reading no line twice", async () => {
    const own = await startHarness({ ...FAST_SUPERVISION });
    let again: Harness | null = null;
    const found = (h: Harness, id: number, text: string) =>
      h.api('GET', `/servers/${id}/logs?search=${encodeURIComponent(text)}`, { token: h.adminToken }).then((r) => r.body.data.total);
    try {
      const s = await createGameServer(own, suite.fake);
      await own.api('POST', `/servers/${s.id}/start`, { token: own.adminToken });
      await statusBecomes(own, s.id, 'running');
      const client = await connectRcon({ host: '127.0.0.1', port: s.rcon_port, password: s.rcon_password });
      await client.command('testkit.log info read before the upgrade');
      await client.close();
      await waitFor(async () => (await found(own, s.id, 'before the upgrade')) === 1, { what: 'the line read before the stop' });
      await own.server.close();
      // The offsets as the version before the rename wrote them: the game's log file under `rpt`.
      const path = join(own.dataDir, 'servers', String(s.id), 'log-offsets.json');
      const { gameLog, ...rest } = JSON.parse(await readFile(path, 'utf8'));
      assert.ok(gameLog?.path && gameLog.offset > 0, `the game's log file and how far it was read: ${JSON.stringify(gameLog)}`);
      await writeFile(path, JSON.stringify({ ...rest, rpt: gameLog }));
      await appendFile(gameLog.path, '12:00:00 written to the game log alone while the service was down\n');
      again = await startHarness({ ...FAST_SUPERVISION, dataDir: own.dataDir, databaseUrl: own.databaseUrl });
      await waitFor(async () => (await found(again!, s.id, 'the game log alone')) === 1, { what: 'the line written while down' });
      assert.equal(await found(again, s.id, 'before the upgrade'), 1, 'read on from the old offset, not from the start again');
      await waitFor(async () => JSON.parse(await readFile(path, 'utf8')).gameLog?.path === gameLog.path, {
        what: 'the offsets written again under the new key',
      });
    } finally {
      await killGames(again ?? own);
      await again?.close();
      await own.close();
    }
  });
});
