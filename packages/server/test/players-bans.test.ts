import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@garrison/testkit';
import { expectError } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer, runningGameServer, killGames, serverRecord, wsClient } from './games.js';

const GUID_A = 'a'.repeat(32);
const GUID_B = 'b'.repeat(32);
const GUID_C = 'c'.repeat(32);

describe('players and bans', () => {
  // A long poll: what the tests see between polls comes from the game's join and leave messages.
  const suite = gameService({ ...FAST_SUPERVISION, playersPollMs: 10_000 });

  const post = (id: number, path: string, body?: unknown, token = suite.h.adminToken) =>
    suite.h.api('POST', `/servers/${id}/${path}`, { token, body });
  const command = async (id: number, text: string) => (await post(id, 'rcon/command', { command: text })).body.data?.response as string;
  const banFile = (id: number) => readFile(join(suite.h.dataDir, 'servers', String(id), 'battleye', 'bans.txt'), 'utf8').catch(() => '');

  const running = () => runningGameServer(suite.h, suite.fake);

  it('follows players in and out: list, count, events, and a history that keeps even a short visit', async () => {
    const s = await running();
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      await command(s.id, `testkit.join Alice ${GUID_A} 10.0.0.5`);
      const joined = await ws.next((m) => m.type === 'players' && m.data.count === 1, 'the players event');
      assert.deepEqual(
        joined.data.players.map((p: { name: string }) => p.name),
        ['Alice'],
      );
      assert.deepEqual(Object.keys(joined.data.players[0]).sort(), ['name', 'ping', 'slot_id']);
      const list = (await suite.h.api('GET', `/servers/${s.id}/players`, { token: suite.h.viewerToken })).body.data;
      assert.equal(list.server_id, s.id);
      assert.equal(list.player_count, 1);
      assert.equal((await serverRecord(suite.h, s.id)).player_count, 1);

      // In and out between two polls: only the game's messages tell.
      await command(s.id, `testkit.join Brief Visitor ${GUID_B} 10.0.0.6`);
      const slot = /^(\d+)\s+10\.0\.0\.6/m.exec(await command(s.id, 'players'))![1];
      await command(s.id, `testkit.leave ${slot}`);
      const visit = await waitFor(
        async () => {
          const page = (await suite.h.api('GET', `/servers/${s.id}/players/history?search=Visitor`, { token: suite.h.viewerToken })).body
            .data;
          return page.items[0]?.left_at && page;
        },
        { what: 'the short visit in the history' },
      );
      assert.equal(visit.total, 1);
      assert.equal(visit.items[0].player_name, 'Brief Visitor');
      assert.equal(visit.items[0].guid, GUID_B);
      assert.ok(Date.parse(visit.items[0].joined_at) <= Date.parse(visit.items[0].left_at));

      const alice = (await suite.h.api('GET', `/servers/${s.id}/players/history?search=Alice`, { token: suite.h.viewerToken })).body.data
        .items[0];
      assert.equal(alice.left_at, null, 'still on');
      assert.equal(
        (await suite.h.api('GET', `/servers/${s.id}/players/history?limit=1`, { token: suite.h.viewerToken })).body.data.items.length,
        1,
      );

      await post(s.id, 'stop');
      const after = (await suite.h.api('GET', `/servers/${s.id}/players/history?search=Alice`, { token: suite.h.viewerToken })).body.data
        .items[0];
      assert.ok(after.left_at, 'everyone leaves with the server');
      assert.equal((await suite.h.api('GET', `/servers/${s.id}/players`, { token: suite.h.viewerToken })).body.data.player_count, 0);
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('kicks and bans a live player by slot, and says something to everyone', async () => {
    const s = await running();
    try {
      await command(s.id, `testkit.join Bob ${GUID_B} 10.0.0.7`);
      await command(s.id, `testkit.join Carol ${GUID_C} 10.0.0.8`);
      const slots = Object.fromEntries(
        [...(await command(s.id, 'players')).matchAll(/^(\d+)\s+\S+\s+-?\d+\s+\S+\s+(\w+)$/gm)].map((m) => [m[2], m[1]]),
      );

      expectError(await post(s.id, `players/${slots.Bob}/kick`, { reason: 'afk' }, suite.h.viewerToken), 403, 'FORBIDDEN');
      const kicked = await post(s.id, `players/${slots.Bob}/kick`, { reason: 'afk' });
      assert.equal(kicked.status, 200, JSON.stringify(kicked.body));
      assert.equal(typeof kicked.body.data.message, 'string');
      expectError(await post(s.id, 'players/99/kick', { reason: 'x' }), 404, 'NOT_FOUND');

      const banned = await post(s.id, `players/${slots.Carol}/ban`, { reason: 'cheating', duration_minutes: null });
      assert.equal(banned.status, 201, JSON.stringify(banned.body));
      assert.equal(banned.body.data.guid, GUID_C);
      assert.equal(banned.body.data.ban_type, 'GUID');
      assert.equal(banned.body.data.expires_at, null);
      assert.equal(banned.body.data.duration_minutes, 0);
      const names = await command(s.id, 'players');
      assert.doesNotMatch(names, /Bob|Carol/, 'both are off the server');
      assert.match(await banFile(s.id), new RegExp(`^${GUID_C} -1 cheating$`, 'm'));
      assert.match(await command(s.id, 'bans'), new RegExp(GUID_C), 'the running game reloaded its bans');

      assert.equal((await post(s.id, 'rcon/say', { message: 'Restart in 5 minutes' })).status, 200);
      expectError(await post(s.id, 'rcon/say', { message: 'two\nlines' }), 400, 'VALIDATION_ERROR');
      const trail = (await suite.h.api('GET', `/servers/${s.id}/events`, { token: suite.h.adminToken })).body.data.events.map(
        (e: { event_type: string }) => e.event_type,
      );
      for (const t of ['kick', 'ban']) assert.ok(trail.includes(t), t);

      await post(s.id, 'stop');
      expectError(await post(s.id, 'players/0/kick', { reason: 'x' }), 409, 'SERVER_NOT_RUNNING');
    } finally {
      await killGames(suite.h);
    }
  });

  it('creates, lists and revokes bans, and keeps the ban file in step (expiry: clock.test.ts)', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const other = await createGameServer(suite.h, suite.fake);
    const create = (body: unknown, token = suite.h.adminToken) => suite.h.api('POST', `/servers/${s.id}/bans`, { token, body });

    const guidBan = await create({ player_uid: GUID_A.toUpperCase(), reason: 'toxic', duration_minutes: 0 });
    assert.equal(guidBan.status, 201, JSON.stringify(guidBan.body));
    assert.deepEqual(Object.keys(guidBan.body.data).sort(), ['ban_type', 'expires_at', 'guid', 'id', 'reason', 'server_id']);
    assert.equal(guidBan.body.data.guid, GUID_A);
    const ipBan = (await create({ player_uid: '192.0.2.7', ban_type: 'IP', duration_minutes: 90 })).body.data;
    assert.ok(Math.abs(Date.parse(ipBan.expires_at) - Date.now() - 90 * 60_000) < 60_000);
    assert.doesNotMatch(expectError(await create({ player_uid: 'not-a-guid' }), 400, 'VALIDATION_ERROR').message, /IP address/);
    // An address without its type: the refusal says which field to send.
    for (const address of ['192.0.2.8', '2001:db8::8']) {
      assert.match(
        expectError(await create({ player_uid: address }), 400, 'VALIDATION_ERROR').message,
        /this looks like an IP address: send ban_type: "IP"/,
      );
    }
    expectError(await create({ player_uid: '300.1.1.1', ban_type: 'IP' }), 400, 'VALIDATION_ERROR');
    // A kind the game does not declare: the refusal names the ones it has.
    assert.match(expectError(await create({ player_uid: GUID_B, ban_type: 'FOO' }), 400, 'VALIDATION_ERROR').message, /GUID or IP/);
    expectError(await create({ player_uid: GUID_B }, suite.h.viewerToken), 403, 'FORBIDDEN');

    const listed = (await suite.h.api('GET', `/servers/${s.id}/bans`, { token: suite.h.viewerToken })).body.data;
    assert.deepEqual(
      listed.map((b: { guid: string }) => b.guid),
      [GUID_A, '192.0.2.7'],
    );
    assert.deepEqual(Object.keys(listed[0]).sort(), [
      'ban_type',
      'banned_by',
      'created_at',
      'duration_minutes',
      'expires_at',
      'guid',
      'id',
      'name',
      'reason',
      'server_id',
      'source',
    ]);
    assert.equal(listed[0].banned_by, 'admin');
    const file = await banFile(s.id);
    assert.match(file, new RegExp(`^${GUID_A} -1 toxic$`, 'm'));
    assert.match(file, /^192\.0\.2\.7 \d{10}$/m);

    expectError(
      await suite.h.api('DELETE', `/servers/${other.id}/bans/${guidBan.body.data.id}`, { token: suite.h.adminToken }),
      404,
      'NOT_FOUND',
    );
    assert.equal((await suite.h.api('DELETE', `/servers/${s.id}/bans/${guidBan.body.data.id}`, { token: suite.h.adminToken })).status, 200);
    assert.doesNotMatch(await banFile(s.id), new RegExp(GUID_A));
    assert.deepEqual(
      (await suite.h.api('GET', `/servers/${s.id}/bans`, { token: suite.h.viewerToken })).body.data.map((b: { guid: string }) => b.guid),
      ['192.0.2.7'],
    );
    assert.equal((await suite.h.api('GET', `/servers/${s.id}/bans?active_only=false`, { token: suite.h.viewerToken })).body.data.length, 2);
  });

  it('keeps a ban when the ban file cannot be written', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const battleye = join(suite.h.dataDir, 'servers', String(s.id), 'battleye');
    await rm(battleye, { recursive: true, force: true });
    await mkdir(join(battleye, 'bans.txt'), { recursive: true }); // a folder where the file must go
    const res = await suite.h.api('POST', `/servers/${s.id}/bans`, { token: suite.h.adminToken, body: { player_uid: GUID_A } });
    assert.equal(res.status, 201);
    assert.equal((await suite.h.api('GET', `/servers/${s.id}/bans`, { token: suite.h.viewerToken })).body.data.length, 1);
  });
});
