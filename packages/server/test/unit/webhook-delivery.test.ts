import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SYSTEM_ACTOR, type WebhookDelivery } from '@garrison/core';
import { TOKENS } from '../../src/tokens.js';
import { ServerService } from '../../src/servers/service.js';
import { WebhookService } from '../../src/webhooks/service.js';
import { BACKOFF_MS, WebhookDeliverer } from '../../src/webhooks/delivery.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';

/** A receiver on a port of its own, answering what the test queues (then 500 when the queue is empty). */
class Receiver {
  readonly answers: { status: number; headers?: Record<string, string> }[] = [];
  readonly received: IncomingHttpHeaders[] = [];
  private readonly server: Server = createServer((req, res) => {
    this.received.push(req.headers);
    req.resume();
    const answer = this.answers.shift() ?? { status: 500 };
    res.writeHead(answer.status, answer.headers).end('{}');
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhook deliveries: retries and back-off', () => {
  let u: UnitContainer;
  let receiver: Receiver;
  let webhooks: WebhookService;
  let hookId: number;
  /** The outcome of the delivery's `attempt`-th send, as the deliverer tells the consoles. */
  const attempt = (n: number) =>
    new Promise<WebhookDelivery>((resolve) => {
      const off = u.resolve(TOKENS.Events).subscribe((event) => {
        if (event.type === 'webhook_delivery' && event.data.attempt === n) {
          off();
          resolve(event.data);
        }
      });
    });
  /** Moves the clock to when the delivery is due again and has the worker look (its own poll is hours away). */
  const retryAt = async (delivery: WebhookDelivery) => {
    await u.clock.advance(Date.parse(delivery.next_attempt_at!) - u.clock.now());
    u.resolve(WebhookOutbox).wakeNow();
  };
  beforeEach(async () => {
    receiver = new Receiver();
    const url = await receiver.listen();
    u = await unitContainer({ settings: { webhookAllowPrivate: true, webhookPollMs: 24 * 3_600_000 } });
    webhooks = u.resolve(WebhookService);
    hookId = (await webhooks.create({ url, kind: 'generic', events: ['server.crashed'] }, SYSTEM_ACTOR)).id;
    u.resolve(WebhookDeliverer).start();
  });
  afterEach(async () => {
    u.resolve(WebhookDeliverer).stop();
    await u.close();
    await receiver.close();
  });

  it('backs off with jitter after each failure, then gives the delivery up', async () => {
    let outcome = attempt(1);
    await webhooks.test(hookId, SYSTEM_ACTOR);
    for (let n = 1; n <= BACKOFF_MS.length; n += 1) {
      const failed = await outcome;
      assert.equal(failed.status, 'pending', `attempt ${n}`);
      assert.equal(failed.response_status, 500);
      const wait = Date.parse(failed.next_attempt_at!) - u.clock.now();
      const planned = BACKOFF_MS[n - 1];
      assert.ok(wait >= planned * 0.8 && wait <= planned * 1.2, `attempt ${n} waits ${wait} ms, ${planned} ms ± 20 %`);
      outcome = attempt(n + 1);
      await retryAt(failed);
    }
    const last = await outcome;
    assert.deepEqual([last.status, last.next_attempt_at], ['failed', null]);
    assert.equal(receiver.received.length, BACKOFF_MS.length + 1);
    assert.ok(
      receiver.received.every((headers) => headers['webhook-id'] === last.event_id && /^v1,/.test(String(headers['webhook-signature']))),
    );
  });

  it('waits as long as the receiver asks, delivers, and turns an endpoint that is gone off', async () => {
    receiver.answers.push({ status: 429, headers: { 'retry-after': '120' } }, { status: 204 });
    const first = attempt(1);
    await webhooks.test(hookId, SYSTEM_ACTOR);
    const limited = await first;
    assert.equal(Date.parse(limited.next_attempt_at!) - u.clock.now(), 120_000, 'Retry-After: 120, no jitter');
    const second = attempt(2);
    await retryAt(limited);
    const delivered = await second;
    assert.deepEqual([delivered.status, delivered.delivered_at], ['delivered', new Date(u.clock.now()).toISOString()]);

    receiver.answers.push({ status: 410 });
    const gone = attempt(1);
    await webhooks.test(hookId, SYSTEM_ACTOR);
    assert.equal((await gone).status, 'failed');
    const hook = await webhooks.get(hookId);
    assert.equal(hook.enabled, false);
    assert.match(hook.disabled_reason!, /410 Gone/);
  });
});

describe('the webhook outbox: which endpoints an event goes to', () => {
  let u: UnitContainer;
  let webhooks: WebhookService;
  let alpha: number;
  let bravo: number;
  const pending = async (hookId: number) => (await webhooks.deliveries(hookId, {})).items.map((d) => [d.event_type, d.server_id]);
  beforeEach(async () => {
    u = await unitContainer({ settings: { webhookAllowPrivate: true } });
    webhooks = u.resolve(WebhookService);
    const servers = u.resolve(ServerService);
    alpha = (await servers.create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, SYSTEM_ACTOR)).id;
    bravo = (await servers.create({ name: 'Bravo', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2402 }, SYSTEM_ACTOR)).id;
  });
  afterEach(() => u.close());

  it('enqueues an event for each enabled endpoint that wants its type and its server, and wakes the worker', async () => {
    const every = (await webhooks.create({ url: 'http://127.0.0.1:9/every', kind: 'generic', events: ['player.joined'] }, SYSTEM_ACTOR)).id;
    const onlyBravo = (
      await webhooks.create(
        { url: 'http://127.0.0.1:9/bravo', kind: 'generic', events: ['player.joined'], server_ids: [bravo] },
        SYSTEM_ACTOR,
      )
    ).id;
    const otherType = (
      await webhooks.create({ url: 'http://127.0.0.1:9/crashes', kind: 'generic', events: ['server.crashed'] }, SYSTEM_ACTOR)
    ).id;
    const off = (
      await webhooks.create({ url: 'http://127.0.0.1:9/off', kind: 'generic', events: ['player.joined'], enabled: false }, SYSTEM_ACTOR)
    ).id;
    let woken = 0;
    const outbox = u.resolve(WebhookOutbox);
    outbox.onEnqueued(() => void woken++);

    await outbox.emitAbout('player.joined', alpha, { player_name: 'Ann', guid: null });
    assert.deepEqual(await pending(every), [['player.joined', alpha]]);
    assert.deepEqual(await pending(onlyBravo), [], 'an endpoint limited to other servers hears nothing of this one');
    assert.equal(woken, 1);

    await outbox.emitAbout('player.joined', bravo, { player_name: 'Bob', guid: null });
    assert.equal((await pending(every)).length, 2);
    assert.deepEqual(await pending(onlyBravo), [['player.joined', bravo]]);
    assert.deepEqual([await pending(otherType), await pending(off)], [[], []], 'nor one of another type, nor one turned off');

    await outbox.emitAbout('player.joined', bravo + 100, { player_name: 'Ghost', guid: null });
    assert.equal(woken, 2, 'an event about a server that is gone is dropped');
  });
});
