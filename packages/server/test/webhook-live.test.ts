import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, startHarness, type Harness } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { wsClient } from './games.js';

type Ws = Awaited<ReturnType<typeof wsClient>>;

/** A socket that also hears the `event` channel (the audit trail and the admins' webhook deliveries). */
async function listening(h: Harness, path: string): Promise<Ws> {
  const ws = await wsClient(h.url, path);
  ws.send({ type: 'subscribe', channels: ['event'] });
  await ws.next((m) => m.type === 'subscribed', 'the event channel subscribed');
  return ws;
}

// What becomes of a webhook delivery is told live to the admins' consoles (`webhook_delivery`), so that
// an open delivery log and a test's confirmation follow it; no one else hears of it.
describe('webhook deliveries, live over the WebSocket', () => {
  let h: Harness;
  let receiver: Receiver;
  const sockets: Ws[] = [];
  before(async () => {
    h = await startHarness({ webhookAllowPrivate: true });
    receiver = await startReceiver();
  });
  after(async () => {
    for (const ws of sockets) ws.close();
    await h?.close();
    await receiver?.close();
  });

  it(
    'go to admins signed in with a session: a test queued, then delivered; ' + 'a failure and a redelivery; never the URL or the secret',
    async () => {
      const made = await h.api('POST', '/webhooks', {
        token: h.adminToken,
        body: { url: receiver.url, kind: 'generic', events: ['server.crashed'] },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const hook = made.body.data as { id: number; secret: string };
      const key = await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: 'bot', scopes: ['servers:read'] } });
      assert.equal(key.status, 201, JSON.stringify(key.body));
      const admin = await listening(h, `/ws?token=${h.adminToken}`);
      const viewer = await listening(h, `/ws?token=${h.viewerToken}`);
      const adminKey = await listening(h, `/ws?token=${key.body.data.key}`);
      const appendix = await listening(h, `/ws/all?token=${h.adminToken}`);
      sockets.push(admin, viewer, adminKey, appendix);
      const deliveriesOf = (ws: Ws) => ws.messages.filter((m) => m.type === 'webhook_delivery');

      const test = await h.api('POST', `/webhooks/${hook.id}/test`, { token: h.adminToken });
      assert.equal(test.status, 202);
      const id = test.body.data.id as number;
      const queued = await admin.next((m) => m.type === 'webhook_delivery' && m.data.id === id, 'the test queued');
      assert.deepEqual(
        [queued.server_id, queued.data.webhook_id, queued.data.event_type, queued.data.status],
        [0, hook.id, 'webhook.test', 'pending'],
      );
      const delivered = await admin.next(
        (m) => m.type === 'webhook_delivery' && m.data.id === id && m.data.status === 'delivered',
        'the test delivered',
      );
      assert.equal(delivered.data.response_status, 200);
      assert.equal(delivered.data.attempt, 1);
      assert.equal(delivered.data.event_id, test.body.data.event_id);
      assert.ok(delivered.data.delivered_at);
      const log = (await h.api('GET', `/webhooks/${hook.id}/deliveries`, { token: h.adminToken })).body.data.items.find(
        (d: { id: number }) => d.id === id,
      );
      assert.deepEqual(delivered.data, log, 'the event is the delivery as its log lists it');

      receiver.answer({ status: 500, body: 'receiver down' });
      const failing = await h.api('POST', `/webhooks/${hook.id}/test`, { token: h.adminToken });
      const retry = await admin.next(
        (m) => m.type === 'webhook_delivery' && m.data.id === failing.body.data.id && m.data.attempt === 1,
        'the failed attempt',
      );
      assert.deepEqual([retry.data.status, retry.data.response_status, retry.data.response_snippet], ['pending', 500, 'receiver down']);
      assert.ok(retry.data.next_attempt_at, 'with its next attempt');
      await h.api('POST', `/webhooks/${hook.id}/deliveries/${failing.body.data.id}/redeliver`, { token: h.adminToken });
      await admin.next(
        (m) => m.type === 'webhook_delivery' && m.data.id === failing.body.data.id && m.data.status === 'delivered',
        'the redelivery delivered',
      );

      const everything = JSON.stringify(admin.messages);
      assert.ok(!everything.includes('secret-path') && !everything.includes(hook.secret), "neither the URL's path nor the secret");

      // An audit entry published after them: a socket that hears it would have heard the deliveries before it.
      const s = await createServer(h);
      for (const ws of [viewer, adminKey, appendix])
        await ws.next((m) => (m.type === 'event' || m.type === 'audit') && m.server_id === s.id, 'the audit entry after them');
      assert.equal(deliveriesOf(viewer).length, 0, 'a viewer hears of no delivery');
      assert.equal(deliveriesOf(adminKey).length, 0, "nor an API key, even an admin's");
      assert.equal(
        appendix.messages.filter((m) => m.type === 'event' && m.data?.webhook_id !== undefined).length,
        0,
        "nor the appendix's /ws/{id}",
      );
      assert.ok(deliveriesOf(admin).length >= 5);
    },
  );
});
