import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '@garrison/testkit';
import { gameService, FAST_SUPERVISION, runningGameServer, killGames, wsClient } from './games.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

const GUID = 'd'.repeat(32);

describe('who a player is: GUID and address for admins, and the GUID in player.joined', () => {
  // A long poll: a join is first heard of through the game's messages (connected, then its GUID).
  const suite = gameService({ ...FAST_SUPERVISION, playersPollMs: 10_000, webhookAllowPrivate: true });
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver?.close());

  it('lists the GUID and IP of each player to admins and a moderating key, never to a viewer or in events', async () => {
    const s = await runningGameServer(suite.h, suite.fake);
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.adminToken}&server_id=${s.id}`);
    try {
      const post = (path: string, body: unknown) => suite.h.api('POST', `/servers/${s.id}/${path}`, { token: suite.h.adminToken, body });
      await post('rcon/command', { command: `testkit.join Erin ${GUID} 10.0.0.42` });
      const event = await ws.next((m) => m.type === 'players' && m.data.count === 1, 'the players event');
      assert.deepEqual(Object.keys(event.data.players[0]).sort(), ['name', 'ping', 'slot_id'], 'events go to viewers too');

      const list = async (token: string) => (await suite.h.api('GET', `/servers/${s.id}/players`, { token })).body.data.players;
      const [admin] = await list(suite.h.adminToken);
      assert.equal(admin.name, 'Erin');
      assert.equal(admin.guid, GUID);
      assert.equal(admin.ip, '10.0.0.42');
      const [viewer] = await list(suite.h.viewerToken);
      assert.deepEqual(Object.keys(viewer).sort(), ['name', 'ping', 'slot_id']);

      const key = async (scopes: string[]) => {
        const made = await suite.h.api('POST', '/auth/keys', {
          token: suite.h.adminToken,
          body: { name: `k-${scopes.join('-')}`, scopes },
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        return made.body.data.key as string;
      };
      assert.equal((await list(await key(['servers:read', 'players:moderate'])))[0].ip, '10.0.0.42');
      assert.equal((await list(await key(['servers:read'])))[0].ip, undefined, 'a read-only key of an admin does not see addresses');
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });

  it('delivers player.joined with the GUID the game reported after the join line, and player.left with it', async () => {
    const s = await runningGameServer(suite.h, suite.fake);
    try {
      const hook = await suite.h.api('POST', '/webhooks', {
        token: suite.h.adminToken,
        body: { url: receiver.url, kind: 'generic', events: ['player.joined', 'player.left'], server_ids: [s.id] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const start = receiver.received.length;
      const command = (text: string) =>
        suite.h.api('POST', `/servers/${s.id}/rcon/command`, { token: suite.h.adminToken, body: { command: text } });
      await command(`testkit.join Frank ${GUID} 10.0.0.43`);
      const [joined] = (await receiver.waitForCount(start + 1, 'player.joined')).slice(start);
      const payload = joined.json as { type: string; data: { player_name: string; guid: string | null } };
      assert.equal(payload.type, 'player.joined');
      assert.deepEqual([payload.data.player_name, payload.data.guid], ['Frank', GUID]);

      const slot = /^(\d+)\s+10\.0\.0\.43/m.exec(String((await command('players')).body.data.response))![1];
      await command(`testkit.leave ${slot}`);
      const [left] = (await receiver.waitForCount(start + 2, 'player.left')).slice(start + 1);
      assert.deepEqual([(left.json as { type: string }).type, (left.json as { data: { guid: string } }).data.guid], ['player.left', GUID]);
      // Announced once: no second player.joined from the poll that followed.
      await waitFor(
        async () => (await suite.h.api('GET', `/servers/${s.id}/players`, { token: suite.h.adminToken })).body.data.player_count === 0,
        { what: 'Frank gone' },
      );
      assert.equal(receiver.received.slice(start).filter((r) => (r.json as { type: string }).type === 'player.joined').length, 1);
    } finally {
      await killGames(suite.h);
    }
  });
});
