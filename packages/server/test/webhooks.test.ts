import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { freePort, waitFor } from '@garrison/testkit';
import { freshMysqlDatabase } from '@garrison/testkit/harness';
import { FakeClock } from '@garrison/server';
import { WEBHOOK_EVENT_TYPES } from '@garrison/core';
import { createServer, expectError, onMysql, startHarness, withDatabase, type Harness } from './helpers.js';
import { startReceiver, type Receiver, type Received } from './webhook-receiver.js';
import { advanceUntil } from './games.js';

const guid = () => randomBytes(16).toString('hex');
const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

async function hook(h: Harness, body: Record<string, unknown>) {
  const res = await h.api('POST', '/webhooks', { token: h.adminToken, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data as { id: number; secret: string; url: string };
}

const ban = (h: Harness, serverId: number, reason = 'cheating') =>
  h.api('POST', `/servers/${serverId}/bans`, {
    token: h.adminToken,
    body: { player_uid: guid(), ban_type: 'GUID', reason, duration_minutes: 0 },
  });

const deliveries = async (h: Harness, webhookId: number) =>
  (await h.api('GET', `/webhooks/${webhookId}/deliveries`, { token: h.adminToken })).body.data as {
    total: number;
    items: Record<string, unknown>[];
  };

describe('webhooks', () => {
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    h = await startHarness({ webhookAllowPrivate: true });
    receiver = await startReceiver();
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  it("tell whom a ban names, but never an address: an IP ban's player.banned carries no guid", async () => {
    const s = await createServer(h);
    await hook(h, { url: receiver.url, kind: 'generic', events: ['player.banned'], server_ids: [s.id] });
    const start = receiver.received.length;
    const id = guid();
    for (const body of [
      { player_uid: id, reason: 'by guid' },
      { player_uid: '198.51.100.9', ban_type: 'IP', reason: 'by address' },
    ]) {
      assert.equal((await h.api('POST', `/servers/${s.id}/bans`, { token: h.adminToken, body })).status, 201);
    }
    const told = (await receiver.waitForCount(start + 2))
      .slice(start)
      .map((r) => (JSON.parse(r.body) as { data: { guid: string | null; reason: string } }).data)
      .sort((a, b) => a.reason.localeCompare(b.reason));
    assert.deepEqual(
      told.map((d) => [d.reason, d.guid]),
      [
        ['by address', null],
        ['by guid', id],
      ],
    );
  });

  it('are kept by admins: the secret shown once, the URL masked in every read, bad input refused', async () => {
    const created = await hook(h, { url: receiver.url, kind: 'generic', events: ['server.crashed', 'player.banned'] });
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    const read = (await h.api('GET', `/webhooks/${created.id}`, { token: h.adminToken })).body.data;
    assert.equal(read.url, `http://127.0.0.1:${receiver.port}/…`, "the path (a Discord webhook's credential) is not shown");
    assert.equal(read.secret, undefined);
    assert.ok(!JSON.stringify((await h.api('GET', '/webhooks', { token: h.adminToken })).body).includes('secret-path'));
    assert.equal((await h.api('GET', '/webhooks', { token: h.viewerToken })).status, 403);
    expectError(
      await h.api('POST', '/webhooks', { token: h.adminToken, body: { url: receiver.url, kind: 'generic', events: ['server.exploded'] } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await h.api('POST', '/webhooks', {
        token: h.adminToken,
        body: { url: 'ftp://example.com/x', kind: 'generic', events: ['server.crashed'] },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await h.api('POST', '/webhooks', {
        token: h.adminToken,
        body: { url: receiver.url, kind: 'generic', events: ['server.crashed'], server_ids: [999] },
      }),
      400,
      'VALIDATION_ERROR',
    );
    const updated = await h.api('PUT', `/webhooks/${created.id}`, {
      token: h.adminToken,
      body: { events: ['server.started'], enabled: false },
    });
    assert.deepEqual([updated.body.data.events, updated.body.data.enabled], [['server.started'], false]);
    assert.equal((await h.api('DELETE', `/webhooks/${created.id}`, { token: h.adminToken })).status, 204);
    expectError(await h.api('GET', `/webhooks/${created.id}`, { token: h.adminToken }), 404, 'NOT_FOUND');
  });

  it(
    'deliver signed Standard Webhooks that the standardwebhooks package verifies, ' + 'with the old key too while a rotation overlaps',
    async () => {
      const s = await createServer(h);
      const endpoint = await hook(h, { url: receiver.url, kind: 'generic', events: ['player.banned'], server_ids: [s.id] });
      const start = receiver.received.length;
      assert.equal((await ban(h, s.id)).status, 201);
      const [got] = (await receiver.waitForCount(start + 1)).slice(start);
      const payload = new StandardWebhook(endpoint.secret).verify(got.body, headersOf(got)) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
      assert.equal(payload.type, 'player.banned');
      assert.equal(payload.data.server_id, s.id);
      assert.equal(payload.data.server_name, s.name);
      assert.equal(payload.data.reason, 'cheating');
      assert.equal(got.path, '/hook/secret-path');
      assert.throws(
        () => new StandardWebhook(`whsec_${randomBytes(24).toString('base64')}`).verify(got.body, headersOf(got)),
        /No matching signature/,
      );

      const other = await createServer(h);
      assert.equal((await ban(h, other.id)).status, 201, 'a server the endpoint does not follow');
      const test = await h.api('POST', `/webhooks/${endpoint.id}/test`, { token: h.adminToken });
      assert.equal(test.status, 202);
      const [tested] = (await receiver.waitForCount(start + 2)).slice(start + 1);
      assert.equal((JSON.parse(tested.body) as { type: string }).type, 'webhook.test', "the other server's ban was not sent");
      assert.equal(tested.headers['webhook-id'], test.body.data.event_id);

      const rotated = (await h.api('POST', `/webhooks/${endpoint.id}/rotate-secret`, { token: h.adminToken })).body.data;
      assert.notEqual(rotated.secret, endpoint.secret);
      await h.api('POST', `/webhooks/${endpoint.id}/test`, { token: h.adminToken });
      const [afterRotation] = (await receiver.waitForCount(start + 3)).slice(start + 2);
      assert.equal(String(afterRotation.headers['webhook-signature']).split(' ').length, 2);
      for (const secret of [rotated.secret, endpoint.secret])
        new StandardWebhook(secret).verify(afterRotation.body, headersOf(afterRotation));

      const log = await deliveries(h, endpoint.id);
      assert.equal(log.total, 3);
      assert.ok(
        log.items.every(
          (d) => d.status === 'delivered' && d.response_status === 200 && d.attempt === 1 && typeof d.duration_ms === 'number',
        ),
      );
      const first = log.items.at(-1)!;
      const again = await h.api('POST', `/webhooks/${endpoint.id}/deliveries/${first.id}/redeliver`, { token: h.adminToken });
      assert.equal(again.status, 202);
      const [redelivered] = (await receiver.waitForCount(start + 4)).slice(start + 3);
      assert.equal(redelivered.headers['webhook-id'], first.event_id, 'the same webhook-id: receivers drop repeats');
      await waitFor(async () => (await deliveries(h, endpoint.id)).items.find((d) => d.id === first.id)?.attempt === 2, {
        what: 'the redelivery logged',
      });
      await h.api('DELETE', `/webhooks/${endpoint.id}`, { token: h.adminToken });
    },
  );

  it('turn an endpoint off when it answers 410 Gone, follow no redirect, and read at most a little of an answer', async () => {
    const s = await createServer(h);
    const elsewhere = await startReceiver();
    try {
      const endpoint = await hook(h, { url: receiver.url, kind: 'generic', events: ['player.banned'], server_ids: [s.id] });
      const start = receiver.received.length;
      receiver.answer({ status: 302, headers: { location: elsewhere.url } }, { status: 200, body: 'x'.repeat(1_000_000) });
      await ban(h, s.id);
      await ban(h, s.id);
      await receiver.waitForCount(start + 2);
      const log = await waitFor(
        async () => {
          const page = await deliveries(h, endpoint.id);
          return page.items.every((d) => d.attempt === 1) && page.items.length === 2 && page;
        },
        { what: 'both attempts logged' },
      );
      const redirected = log.items.find((d) => d.response_status === 302)!;
      assert.equal(redirected.status, 'pending', 'a redirect is a failure, tried again later');
      assert.equal(elsewhere.received.length, 0, 'the redirect was not followed');
      const big = log.items.find((d) => d.response_status === 200)!;
      assert.equal(big.status, 'delivered');
      assert.equal(String(big.response_snippet).length, 500);

      receiver.answer({ status: 410 });
      await h.api('POST', `/webhooks/${endpoint.id}/test`, { token: h.adminToken });
      const off = await waitFor(
        async () => {
          const read = (await h.api('GET', `/webhooks/${endpoint.id}`, { token: h.adminToken })).body.data;
          return !read.enabled && read;
        },
        { what: 'the endpoint turned off' },
      );
      assert.match(off.disabled_reason, /410 Gone/);
      const count = receiver.received.length;
      await ban(h, s.id);
      const page = await deliveries(h, endpoint.id);
      assert.equal(page.items.filter((d) => d.event_type === 'player.banned').length, 2, 'nothing enqueued for an endpoint that is off');
      assert.ok(
        page.items.every((d) => d.status !== 'pending'),
        'its pending deliveries were given up',
      );
      expectError(await h.api('POST', `/webhooks/${endpoint.id}/test`, { token: h.adminToken }), 409, 'CONFLICT');
      assert.equal(receiver.received.length, count);
    } finally {
      await elsewhere.close();
    }
  });

  it(
    'send Discord embeds as Discord documents them, escaped and mentioning nobody, ' + 'coalescing a burst and honouring retry_after',
    async () => {
      const s = await createServer(h, { name: 'Alpha *Main*' });
      const discord = await startReceiver();
      try {
        await hook(h, { url: discord.url, kind: 'discord', events: ['player.banned'] });
        discord.answer({
          status: 429,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.8, global: false }),
        });
        await ban(h, s.id, '@everyone look at **this**');
        await discord.waitForCount(1, 'the first message, answered 429');
        for (let i = 0; i < 14; i++) await ban(h, s.id, `burst ${i}`);
        const messages = await waitFor(
          () => {
            const embeds = discord.received.slice(1).flatMap((r) => (r.json as { embeds: unknown[] }).embeds);
            return embeds.length >= 15 && discord.received.slice(1);
          },
          { what: 'all 15 events delivered' },
        );
        assert.ok(messages.length <= 3, `15 events in ${messages.length} messages`);
        assert.ok(discord.received[1].at - discord.received[0].at >= 750, 'retry_after was waited out');
        const message = messages[0].json as { username: string; allowed_mentions: { parse: string[] }; embeds: Record<string, unknown>[] };
        assert.deepEqual(message.allowed_mentions, { parse: [] });
        assert.ok(message.embeds.length <= 10);
        const first = message.embeds[0];
        assert.equal(first.title, 'Alpha \\*Main\\*: a ban was added: \\@everyone look at \\*\\*this\\*\\*');
        assert.equal(typeof first.color, 'number');
        assert.ok(Date.parse(String(first.timestamp)) > 0);
        assert.ok(String(first.description).length <= 4096 && String(first.title).length <= 256);
        assert.match(String((first.footer as { text: string }).text), /player\.banned/);
      } finally {
        await discord.close();
      }
    },
  );

  it('refuse a private destination unless allowed, when saved and again at send time', async () => {
    const strict = await startHarness();
    try {
      const embedding = [
        'http://[::7f00:1]/x', // IPv4-compatible 127.0.0.1
        'http://[::127.0.0.1]/x',
        'http://[::a00:1]/x',
        'http://[::ffff:127.0.0.1]/x', // IPv4-mapped
        'http://[::ffff:7f00:1]/x',
        'http://[::ffff:10.0.0.1]/x',
        'http://[::ffff:0:7f00:1]/x', // IPv4-translated
        'http://[64:ff9b::7f00:1]/x', // NAT64 of loopback and of a private address
        'http://[64:ff9b::c0a8:1]/x',
        'http://[2002:7f00:1::1]/x', // 6to4 and Teredo: refused whole
        'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
      ];
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://localhost/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://[::ffff:192.168.0.1]/x',
        ...embedding,
      ]) {
        const res = await strict.api('POST', '/webhooks', {
          token: strict.adminToken,
          body: { url, kind: 'generic', events: ['webhook.test'] },
        });
        expectError(res, 400, 'VALIDATION_ERROR');
        assert.match(res.body.error.message, /public addresses only/, url);
      }
      // NAT64 of a public host is public: an IPv6-only network's DNS64 hands out such addresses for every IPv4-only receiver.
      const nat64 = await strict.api('POST', '/webhooks', {
        token: strict.adminToken,
        body: { url: 'http://[64:ff9b::808:808]/x', kind: 'generic', events: ['webhook.test'] },
      });
      assert.equal(nat64.status, 201, JSON.stringify(nat64.body));
      await strict.api('DELETE', `/webhooks/${(nat64.body.data as { id: number }).id}`, { token: strict.adminToken });
      // A name that pointed elsewhere when it was saved now leads to a private address (as DNS rebinding would).
      const id = await withDatabase(strict, async (knex) => {
        const [made] = await knex('webhooks').insert({
          url: receiver.url,
          kind: 'generic',
          events: '["webhook.test"]',
          server_ids: null,
          enabled: true,
          secret: `whsec_${randomBytes(24).toString('base64')}`,
          created_at: new Date().toISOString(),
        });
        return Number(made);
      });
      const count = receiver.received.length;
      await strict.api('POST', `/webhooks/${id}/test`, { token: strict.adminToken });
      const refused = await waitFor(async () => (await deliveries(strict, id)).items.find((d) => d.error), { what: 'the send refused' });
      assert.match(String(refused.error), /public addresses only/);
      assert.equal(refused.response_status, null);
      assert.equal(receiver.received.length, count, 'nothing was sent');

      // Saved before the check knew better: ::7f00:1 is the receiver's 127.0.0.1 in an IPv6 disguise.
      const disguised = await withDatabase(strict, async (knex) => {
        const url = `http://[::7f00:1]:${new URL(receiver.url).port}/x`;
        const [made] = await knex('webhooks').insert({
          url,
          kind: 'generic',
          events: '["webhook.test"]',
          server_ids: null,
          enabled: true,
          secret: `whsec_${randomBytes(24).toString('base64')}`,
          created_at: new Date().toISOString(),
        });
        return Number(made);
      });
      await strict.api('POST', `/webhooks/${disguised}/test`, { token: strict.adminToken });
      const refusedToo = await waitFor(async () => (await deliveries(strict, disguised)).items.find((d) => d.error), {
        what: 'the disguised send refused',
      });
      assert.match(String(refusedToo.error), /public addresses only/);
      assert.equal(receiver.received.length, count, 'nothing was sent');
    } finally {
      await strict.close();
    }
  });
});

describe('the webhooks documentation', () => {
  it('names every event type of the catalogue', async () => {
    const doc = await readFile(new URL('../../../docs/integrations.md', import.meta.url), 'utf8');
    for (const type of WEBHOOK_EVENT_TYPES) assert.ok(doc.includes(`\`${type}\``), `${type} is in docs/integrations.md`);
  });
});

describe('webhook retries on a fake clock', () => {
  const clock = new FakeClock(new Date());
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    h = await startHarness({
      clock,
      webhookAllowPrivate: true,
      webhookPollMs: 1_000,
      metricsIntervalMs: 3_600_000,
      playersPollMs: 3_600_000,
      banExpiryCheckMs: 3_600_000,
    });
    receiver = await startReceiver();
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('back off 5 s, 30 s, 2 min with jitter, keep the webhook-id, and deliver on the fourth attempt', async () => {
    const s = await createServer(h);
    const endpoint = await hook(h, { url: receiver.url, kind: 'generic', events: ['player.banned'] });
    receiver.answer({ status: 500 }, { status: 503 }, { status: 502, body: 'bad gateway' });
    await ban(h, s.id);
    const expected = [5_000, 30_000, 120_000];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await receiver.waitForCount(attempt, `attempt ${attempt}`);
      const pending = await waitFor(
        async () => {
          const d = (await deliveries(h, endpoint.id)).items[0];
          return d.attempt === attempt && d.status === 'pending' && d;
        },
        { what: `attempt ${attempt} logged` },
      );
      // From the attempt (its webhook-timestamp, in whole seconds of the fake clock) to the next.
      const wait = Date.parse(String(pending.next_attempt_at)) - Number(receiver.received[attempt - 1].headers['webhook-timestamp']) * 1000;
      assert.ok(
        wait >= expected[attempt - 1] * 0.8 && wait <= expected[attempt - 1] * 1.2 + 1_000,
        `wait ${wait} ms after attempt ${attempt}`,
      );
      assert.equal(receiver.received.length, attempt, 'not before its time');
      // A second at a time: each poll's database work ends before the next (the runner plans from a run's end).
      await advanceUntil(clock, async () => receiver.received.length > attempt, `attempt ${attempt + 1}`, 1_000);
    }
    const done = await waitFor(
      async () => {
        const d = (await deliveries(h, endpoint.id)).items[0];
        return d.status === 'delivered' && d;
      },
      { what: 'delivered' },
    );
    assert.equal(done.attempt, 4);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'one webhook-id across the attempts');
    for (const r of receiver.received) new StandardWebhook(endpoint.secret).verify(r.body, headersOf(r));
  });
});

describe('webhook deliveries across a restart of the service', () => {
  it('are sent by the service that comes back, nothing lost', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-webhooks-'));
    const database = onMysql ? await freshMysqlDatabase(process.env.GARRISON_TEST_DATABASE!) : null;
    const port = await freePort();
    const options = { dataDir, webhookAllowPrivate: true, ...(database ? { databaseUrl: database.url } : {}) };
    let receiver: Receiver | null = null;
    let second: Harness | null = null;
    try {
      const first = await startHarness(options);
      const s = await createServer(first);
      const endpoint = await hook(first, { url: `http://127.0.0.1:${port}/hook`, kind: 'generic', events: ['player.banned'] });
      await ban(first, s.id);
      await waitFor(async () => (await deliveries(first, endpoint.id)).items[0]?.attempt === 1, {
        what: 'a first attempt that found nobody',
      });
      await first.close();

      receiver = await startReceiver(port);
      second = await startHarness(options);
      const [got] = await receiver.waitForCount(1, 'the pending delivery, sent after the restart');
      assert.equal((new StandardWebhook(endpoint.secret).verify(got.body, headersOf(got)) as { type: string }).type, 'player.banned');
      const done = await waitFor(async () => (await deliveries(second!, endpoint.id)).items.find((d) => d.status === 'delivered'), {
        what: 'logged as delivered',
      });
      assert.equal(done.attempt, 2);
    } finally {
      await second?.close();
      await receiver?.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
