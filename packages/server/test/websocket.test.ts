import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './helpers.js';
import { rawRequest } from './raw-http.js';
import { gameService, FAST_SUPERVISION, createGameServer, killGames, statusBecomes, wsClient } from './games.js';

describe('the WebSocket /ws', () => {
  const suite = gameService(FAST_SUPERVISION);

  it('closes with 4001 without a valid token of an existing user', async () => {
    const gone = await suite.h.userToken('viewer');
    await suite.h.api('DELETE', `/auth/users/${gone.id}`, { token: suite.h.adminToken });
    for (const query of ['', '?token=', '?token=garbage', `?token=${gone.token}`, `/all?token=nope`]) {
      const ws = await wsClient(suite.h.url, `/ws${query}`);
      assert.equal((await ws.closing).code, 4001, query);
      assert.deepEqual(ws.messages, []);
    }
  });

  it('greets with the subscriptions, answers ping, and refuses a malformed server_id', async () => {
    const all = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}`);
    const some = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=3&server_id=5`);
    try {
      const hello = await all.next((m) => m.type === 'connected', 'connected');
      assert.equal(hello.data.subscriptions, 'all');
      assert.match(hello.data.user, /^\d+$/);
      assert.deepEqual((await some.next((m) => m.type === 'connected', 'connected')).data.subscriptions, [3, 5]);
      all.send({ type: 'ping' });
      await all.next((m) => m.type === 'pong', 'pong');
    } finally {
      all.close();
      some.close();
    }
    for (const bad of ['1.5', 'abc', '-1', '99999999999']) {
      const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${bad}`);
      assert.equal((await ws.closing).code, 4400, bad);
    }
  });

  it("routes each server's events only to its subscribers and to those of all", async () => {
    const a = await createGameServer(suite.h, suite.fake);
    const b = await createGameServer(suite.h, suite.fake);
    const onlyA = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${a.id}`);
    const onlyB = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${b.id}`);
    const everything = await wsClient(suite.h.url, `/ws?token=${suite.h.adminToken}`);
    const appendix = await wsClient(suite.h.url, `/ws/${a.id}?token=${suite.h.viewerToken}`);
    try {
      await suite.h.api('POST', `/servers/${a.id}/start`, { token: suite.h.adminToken });
      await statusBecomes(suite.h, a.id, 'running');
      const running = (m: any) => m.type === 'server_status' && m.server_id === a.id && m.data.status === 'running';
      await everything.next(running, 'running on the all-servers client');
      await onlyA.next(running, 'running on the server-A client');
      const status = await appendix.next((m) => m.type === 'status' && m.data.status === 'running', "the appendix form's status message");
      assert.equal(status.server_id, a.id);
      assert.ok(!onlyB.messages.some((m) => m.server_id === a.id), 'nothing of server A reaches a client of server B');
      // Contract clients get only the contract's event types; the audit trail is a channel one asks for.
      assert.ok(
        onlyA.messages.every((m) => ['connected', 'server_status', 'log', 'players', 'metrics'].includes(m.type)),
        JSON.stringify(onlyA.messages),
      );
      // The contract's fields, and beside them the event catalogue's envelope: the same id, time and origin on every client.
      for (const m of onlyA.messages.filter((x) => x.type === 'server_status')) {
        assert.deepEqual(Object.keys(m).sort(), ['data', 'id', 'origin', 'server_id', 'time', 'type']);
        assert.deepEqual(Object.keys(m.data).sort(), ['pid', 'started_at', 'status']);
        assert.ok(typeof m.id === 'string' && m.id.length > 0 && typeof m.origin === 'string' && m.origin.length > 0, JSON.stringify(m));
        assert.equal(new Date(m.time).toISOString(), m.time);
        assert.deepEqual(
          everything.messages.find((x) => x.id === m.id),
          m,
          'the all-servers client got the same message, envelope and all',
        );
      }
      assert.deepEqual(
        Object.keys(status).sort(),
        ['data', 'id', 'origin', 'server_id', 'time', 'type'],
        'the appendix form carries the envelope too',
      );
      appendix.send({ type: 'subscribe', channels: ['event'] });
      await appendix.next((m) => m.type === 'subscribed' && m.data.channels.includes('event'), 'subscribed');
      await suite.h.api('POST', `/servers/${a.id}/stop`, { token: suite.h.adminToken });
      const stopEvent = await appendix.next((m) => m.type === 'event' && m.data.event_type === 'stop', 'the audit event of the stop');
      assert.equal(stopEvent.data.actor, 'admin');
      // A viewer gets no secret in any event: the game's passwords appear nowhere in what it received.
      const seen = JSON.stringify([...onlyA.messages, ...appendix.messages]);
      for (const secret of [a.rcon_password, a.password_admin])
        assert.ok(!seen.includes(String(secret)), "no credential in a viewer's events");
    } finally {
      for (const c of [onlyA, onlyB, everything, appendix]) c.close();
      await killGames(suite.h);
    }
  });

  it('answers an upgrade on any other path with a 404 in the envelope, like every unknown route', async () => {
    const { host } = new URL(suite.h.url);
    for (const path of ['/wsx', '/api/servers', '/ws/1/extra', `/socket?token=${suite.h.viewerToken}`]) {
      const res = await rawRequest(
        suite.h.url,
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      assert.equal(res.status, 404, path);
      assert.match(res.headers['content-type'] ?? '', /^application\/json/);
      const body = JSON.parse(res.body);
      assert.deepEqual(
        { ...body, error: { ...body.error, message: typeof body.error.message } },
        { success: false, data: null, error: { code: 'NOT_FOUND', message: 'string' } },
      );
      assert.ok(!res.text.includes(suite.h.viewerToken), 'the token in the query is not echoed');
    }
  });

  it('closes every socket with 1001 when the service stops', async () => {
    const own = await startHarness();
    const clients = await Promise.all([
      wsClient(own.url, `/ws?token=${own.viewerToken}`),
      wsClient(own.url, `/ws/all?token=${own.adminToken}`),
    ]);
    await Promise.all(clients.map((c) => c.next((m) => m.type === 'connected', 'connected')));
    await own.close();
    for (const c of clients) assert.equal((await c.closing).code, 1001);
  });
});
