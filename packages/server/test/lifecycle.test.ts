import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile, mkdir, rm } from 'node:fs/promises';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { join } from 'node:path';
import { expectError, withDatabase } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer, isAlive, killGames, serverRecord, statusBecomes, wsClient } from './games.js';

describe('starting, stopping and watching game processes', () => {
  const suite = gameService(FAST_SUPERVISION);

  const post = (id: number, action: string, body?: unknown) =>
    suite.h.api('POST', `/servers/${id}/${action}`, { token: suite.h.adminToken, body });
  const command = async (id: number, text: string) => {
    const res = await post(id, 'rcon/command', { command: text });
    assert.equal(res.status, 200, `${text}: ${JSON.stringify(res.body)}`);
    return res;
  };

  it('starts a game in its own process group, reports starting then running, and stops it through remote admin', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      const started = await post(s.id, 'start');
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.equal(started.body.data.status, 'starting');
      const pid = started.body.data.pid as number;
      assert.ok(isAlive(pid));
      // Its own process group (and session): signals to the service's group never reach it.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      assert.equal(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]), pid, 'process group id is its pid');

      await ws.next((m) => m.type === 'server_status' && m.data.status === 'starting' && m.data.pid === pid, 'starting event');
      await ws.next((m) => m.type === 'server_status' && m.data.status === 'running', 'running event');
      const running = await serverRecord(suite.h, s.id);
      assert.equal(running.status, 'running');
      assert.equal(running.pid, pid);
      assert.ok(Date.parse(running.started_at) <= Date.now());
      assert.equal(typeof running.uptime_seconds, 'number');

      expectError(await post(s.id, 'start'), 409, 'SERVER_ALREADY_RUNNING');
      expectError(await suite.h.api('DELETE', `/servers/${s.id}`, { token: suite.h.adminToken }), 409, 'SERVER_NOT_STOPPED');
      const output = readFileSync(join(suite.h.dataDir, 'servers', String(s.id), 'output.log'), 'utf8');
      assert.match(output, /Dedicated host created\./, 'the game writes its output to a file, not a pipe');

      const stopped = await post(s.id, 'stop');
      assert.equal(stopped.status, 200);
      assert.deepEqual(stopped.body.data, { status: 'stopped' });
      assert.ok(!isAlive(pid), 'the process is gone when stop answers');
      assert.match(readFileSync(join(suite.h.dataDir, 'servers', String(s.id), 'output.log'), 'utf8'), /Shutdown requested over RCon/);
      const record = await serverRecord(suite.h, s.id);
      assert.equal(record.status, 'stopped');
      assert.equal(record.pid, null);
      assert.equal(record.started_at, null);
      await ws.next((m) => m.type === 'server_status' && m.data.status === 'stopping', 'stopping event');
      await ws.next((m) => m.type === 'server_status' && m.data.status === 'stopped' && m.data.pid === null, 'stopped event');

      const trail = (await suite.h.api('GET', `/servers/${s.id}/events`, { token: suite.h.viewerToken })).body.data;
      assert.deepEqual(
        trail.events
          .map((e: { event_type: string }) => e.event_type)
          .reverse()
          .filter((t: string) => t !== 'command'),
        ['server_created', 'start', 'running', 'stop'],
      );
      assert.equal(trail.events.find((e: { event_type: string }) => e.event_type === 'start').actor, 'admin');
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('answers SERVER_NOT_RUNNING to stop, kill and restart of a server that runs nothing', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    for (const action of ['stop', 'kill', 'restart']) expectError(await post(s.id, action), 409, 'SERVER_NOT_RUNNING');
  });

  it('kills at once, and stops at once with force', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    try {
      for (const [action, body] of [
        ['kill', undefined],
        ['stop', { force: true, reason: 'test' }],
      ] as const) {
        const { pid } = (await post(s.id, 'start')).body.data;
        await statusBecomes(suite.h, s.id, 'running');
        await command(s.id, 'testkit.hang'); // a graceful stop would now take the whole time-out
        const started = Date.now();
        const res = await post(s.id, action, body);
        assert.deepEqual(res.body.data, { status: 'stopped' }, action);
        assert.ok(Date.now() - started < FAST_SUPERVISION.stopTimeoutMs, `${action} did not wait for a graceful stop`);
        assert.ok(!isAlive(pid));
        assert.equal((await serverRecord(suite.h, s.id)).status, 'stopped');
      }
    } finally {
      await killGames(suite.h);
    }
  });

  // The stop time-out and the auto-restart's back-off are in clock.test.ts, on a fake clock.

  it('restarts: stop, then start with a new process', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    try {
      const first = (await post(s.id, 'start')).body.data.pid;
      await statusBecomes(suite.h, s.id, 'running');
      const res = await post(s.id, 'restart');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'starting');
      assert.notEqual(res.body.data.pid, first);
      assert.ok(!isAlive(first));
      await statusBecomes(suite.h, s.id, 'running');
    } finally {
      await killGames(suite.h);
    }
  });

  it('serialises concurrent starts, stops and kills: one process, never a contradicting record', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    try {
      const starts = await Promise.all(Array.from({ length: 6 }, () => post(s.id, 'start')));
      const ok = starts.filter((r) => r.status === 200);
      assert.equal(ok.length, 1, JSON.stringify(starts.map((r) => r.status)));
      for (const r of starts.filter((r) => r.status !== 200)) expectError(r, 409, 'SERVER_ALREADY_RUNNING');
      const pid = ok[0].body.data.pid;
      await statusBecomes(suite.h, s.id, 'running');

      const ends = await Promise.all([
        post(s.id, 'stop'),
        post(s.id, 'kill'),
        post(s.id, 'stop', { force: true }),
        suite.h.api('DELETE', `/servers/${s.id}`, { token: suite.h.adminToken }),
      ]);
      assert.ok(
        ends.some((r) => r.status === 200),
        JSON.stringify(ends.map((r) => r.status)),
      );
      for (const r of ends) assert.ok([200, 204, 404, 409].includes(r.status), `${r.status} ${JSON.stringify(r.body)}`);
      assert.ok(!isAlive(pid));
      const after = await suite.h.api('GET', `/servers/${s.id}`, { token: suite.h.adminToken });
      assert.ok(after.status === 404 || after.body.data.status === 'stopped');
    } finally {
      await killGames(suite.h);
    }
  });

  describe('refuses to start', () => {
    it('a missing executable: 400 EXE_NOT_FOUND', async () => {
      const s = await createGameServer(suite.h, suite.fake, { exe_path: join(suite.fake.dir, 'missing', 'gameaserver_x64.exe') });
      expectError(await post(s.id, 'start'), 400, 'EXE_NOT_FOUND');
      assert.equal((await serverRecord(suite.h, s.id)).status, 'stopped');
    });

    it('a port taken on the host: 409 PORT_IN_USE', async () => {
      const s = await createGameServer(suite.h, suite.fake);
      const blocker = createSocket('udp4');
      blocker.bind(s.rcon_port, '127.0.0.1');
      await once(blocker, 'listening');
      try {
        expectError(await post(s.id, 'start'), 409, 'PORT_IN_USE');
      } finally {
        blocker.close();
      }
    });

    it('a config that fails its schema: 400 INVALID_CONFIG', async () => {
      const s = await createGameServer(suite.h, suite.fake);
      await withDatabase(suite.h, async (knex) => {
        const row = await knex('config_sections').where({ server_id: s.id, section: 'server' }).first();
        await knex('config_sections')
          .where({ id: row.id })
          .update({ data: JSON.stringify({ ...JSON.parse(row.data), max_players: -5 }) });
      });
      const error = expectError(await post(s.id, 'start'), 400, 'INVALID_CONFIG');
      assert.match(error.message, /max_players/);
    });

    it('config files that cannot be written: 500 CONFIG_WRITE_ERROR', async () => {
      const s = await createGameServer(suite.h, suite.fake);
      const dir = join(suite.h.dataDir, 'servers', String(s.id));
      await mkdir(dir, { recursive: true });
      await rm(join(dir, 'battleye'), { recursive: true, force: true });
      await writeFile(join(dir, 'battleye'), 'a file where a folder must be');
      expectError(await post(s.id, 'start'), 500, 'CONFIG_WRITE_ERROR');
      assert.equal((await serverRecord(suite.h, s.id)).status, 'stopped');
    });
  });
});
