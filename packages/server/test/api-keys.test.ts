import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ENDPOINT_SCOPES, endpoints, KEY_SCOPES, type EndpointId } from '@garrison/core';
import { FakeClock } from '@garrison/server';
import { createServer, expectError, startHarness, tokenFor, type Harness } from './helpers.js';
import { wsClient } from './games.js';

const METRICS_TOKEN = 'keys-test-metrics-token-0123';

async function makeKey(h: Harness, token: string, body: Record<string, unknown>) {
  const res = await h.api('POST', '/auth/keys', { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data as { id: number; key: string; prefix: string; expires_at: string | null };
}

/** A request to an endpoint of core's table, its path filled with `serverId` and 999999 for every other id. */
function requestFor(id: EndpointId, serverId: number) {
  const e = endpoints[id];
  const path = e.path
    .replace('{server_id}', String(serverId))
    .replace(/\{[a-z_]+\}/g, (m) =>
      m === '{game_type}'
        ? 'gamea'
        : m === '{section}'
          ? 'server'
          : m === '{filename}'
            ? 'x.pbo'
            : m === '{node_id}'
              ? 'nowhere'
              : '999999',
    );
  return { method: e.method, path, body: e.method === 'GET' || e.method === 'DELETE' ? undefined : {} };
}

describe('API keys', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metricsToken: METRICS_TOKEN });
  });
  after(() => h?.close());

  it('are shown once, listed without the secret, and revoked at once; a viewer sees only their own', async () => {
    const made = await makeKey(h, h.adminToken, { name: 'Discord bot', scopes: ['servers:read'] });
    assert.match(made.key, new RegExp(`^gar_${made.id}_[A-Za-z0-9_-]{43}$`));
    assert.ok(made.prefix.startsWith(`gar_${made.id}_`) && made.prefix.length < 20);
    assert.ok(Date.parse(made.expires_at!) - Date.now() > 89 * 86_400_000, 'a 90-day default');
    const listed = (await h.api('GET', '/auth/keys', { token: h.adminToken })).body.data;
    assert.equal(listed.length, 1);
    assert.ok(!JSON.stringify(listed).includes(made.key.slice(-43)), 'the secret is never read back');
    assert.equal((await h.api('GET', '/servers', { token: made.key })).status, 200);

    const viewer = await tokenFor(h, 'viewer', 'keys_viewer');
    await makeKey(h, viewer.token, { name: 'mine', scopes: ['servers:read'] });
    assert.equal((await h.api('GET', '/auth/keys', { token: viewer.token })).body.data.length, 1, 'a viewer lists their own');
    expectError(await h.api('GET', '/auth/keys?all=true', { token: viewer.token }), 403, 'FORBIDDEN');
    assert.equal((await h.api('GET', '/auth/keys?all=true', { token: h.adminToken })).body.data.length, 2, "an admin, everyone's");
    expectError(await h.api('DELETE', `/auth/keys/${made.id}`, { token: viewer.token }), 404, 'NOT_FOUND');
    expectError(
      await h.api('POST', '/auth/keys', { token: viewer.token, body: { name: 'x', scopes: ['servers:control'] } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await h.api('POST', '/auth/keys', { token: viewer.token, body: { name: 'x', scopes: ['servers:read'], expires_at: null } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: 'x', scopes: ['servers:read'], cidrs: ['10.0.0.0/99'] } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await h.api('POST', '/auth/keys', { token: made.key, body: { name: 'x', scopes: ['servers:read'] } }), 403, 'FORBIDDEN');

    assert.equal((await h.api('DELETE', `/auth/keys/${made.id}`, { token: h.adminToken })).status, 204);
    expectError(await h.api('GET', '/servers', { token: made.key }), 401, 'UNAUTHORIZED');
    expectError(await h.api('GET', '/servers', { token: `gar_${made.id}_${'A'.repeat(43)}` }), 401, 'UNAUTHORIZED');
  });

  it('allow exactly the endpoints of their scopes, on every endpoint of the table', async () => {
    const ids = Object.keys(endpoints) as EndpointId[];
    assert.deepEqual(
      ids.filter((id) => !ENDPOINT_SCOPES[id]),
      [],
      'every endpoint has a scope',
    );
    for (const scope of KEY_SCOPES) {
      const { key } = await makeKey(h, h.adminToken, { name: `only ${scope}`, scopes: [scope] });
      for (const id of ids) {
        if (endpoints[id].access === 'public') continue;
        // A server that does not exist: an allowed call is answered (404, 400…) and changes nothing.
        const { method, path, body } = requestFor(id, 999_999);
        const res = await h.api(method, path, { token: key, body });
        const refusedForScope = res.status === 403 && /scope/.test(String(res.body?.error?.message));
        assert.equal(
          refusedForScope,
          ENDPOINT_SCOPES[id] !== scope,
          `${scope} key on ${id} (${method} ${path}): ${res.status} ${JSON.stringify(res.body?.error)}`,
        );
      }
    }
  });

  it('limited to servers: lists, reads and streams only those, and cannot make servers', async () => {
    const mine = await createServer(h, { name: 'Mine' });
    const other = await createServer(h, { name: 'Other' });
    const { key } = await makeKey(h, h.adminToken, {
      name: 'one server',
      scopes: ['servers:read', 'servers:write'],
      server_ids: [mine.id],
    });
    assert.deepEqual(
      (await h.api('GET', '/servers', { token: key })).body.data.map((s: { id: number }) => s.id),
      [mine.id],
    );
    assert.equal((await h.api('GET', `/servers/${mine.id}`, { token: key })).status, 200);
    expectError(await h.api('GET', `/servers/${other.id}`, { token: key }), 404, 'NOT_FOUND');
    expectError(await h.api('PUT', `/servers/${other.id}`, { token: key, body: { name: 'taken' } }), 404, 'NOT_FOUND');
    expectError(
      await h.api('POST', '/servers', { token: key, body: { name: 'x', exe_path: '/x', game_port: 2302, rcon_port: 2306 } }),
      403,
      'FORBIDDEN',
    );

    const ws = await wsClient(h.url, `/ws?token=${encodeURIComponent(key)}`);
    try {
      await h.api('PUT', `/servers/${other.id}`, { token: h.adminToken, body: { description: 'changed' } });
      await h.api('PUT', `/servers/${mine.id}`, { token: h.adminToken, body: { description: 'changed' } });
      await h.api('POST', `/servers/${mine.id}/bans`, { token: h.adminToken, body: { player_uid: 'c'.repeat(32) } });
      await h.api('POST', `/servers/${other.id}/bans`, { token: h.adminToken, body: { player_uid: 'd'.repeat(32) } });
      ws.socket.send(JSON.stringify({ type: 'subscribe', channels: ['event'] }));
      await h.api('POST', `/servers/${other.id}/bans`, { token: h.adminToken, body: { player_uid: 'e'.repeat(32) } });
      await h.api('POST', `/servers/${mine.id}/bans`, { token: h.adminToken, body: { player_uid: 'f'.repeat(32) } });
      await ws.next((m) => m.type === 'event' && m.server_id === mine.id && m.data.event_type === 'ban', 'the event of its server');
      assert.deepEqual(
        [...new Set(ws.messages.filter((m) => m.server_id !== undefined).map((m) => m.server_id))],
        [mine.id],
        'nothing of the other server',
      );
    } finally {
      ws.socket.close();
    }
  });

  it('limited to servers: /metrics shows only their series, /system/status counts only them', async () => {
    const mine = await createServer(h, { name: 'Scraped' });
    const other = await createServer(h, { name: 'Not scraped' });
    const scrape = async (token: string) => {
      const res = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      return res.text();
    };
    const serversIn = (text: string) => new Set([...text.matchAll(/[{,]server_id="(\d+)"/g)].map((m) => Number(m[1])));
    const everything = serversIn(await scrape(METRICS_TOKEN));
    assert.ok(everything.has(mine.id) && everything.has(other.id), 'the metrics token sees every server');
    const { key } = await makeKey(h, h.adminToken, {
      name: 'one server scraper',
      scopes: ['metrics', 'servers:read'],
      server_ids: [mine.id],
    });
    const text = await scrape(key);
    assert.deepEqual([...serversIn(text)], [mine.id], 'no series of another server');
    assert.match(text, /^garrison_server_up\{server_id="\d+",game="gamea"\} 0$/m);
    assert.match(text, /^# TYPE garrison_process_resident_memory_bytes gauge$/m, "the service's own series stay");

    const total = (await h.api('GET', '/system/status', { token: h.adminToken })).body.data.total_servers as number;
    assert.ok(total >= 2);
    const counted = (await h.api('GET', '/system/status', { token: key })).body.data;
    assert.equal(counted.total_servers, 1);
    assert.equal(counted.running_servers, 0);
  });

  it('are refused from outside their address ranges, and after they expire', async () => {
    const outside = await makeKey(h, h.adminToken, {
      name: 'lan only',
      scopes: ['servers:read'],
      cidrs: ['10.20.30.0/24', '2001:db8::/32'],
    });
    expectError(await h.api('GET', '/servers', { token: outside.key }), 401, 'UNAUTHORIZED');
    const inside = await makeKey(h, h.adminToken, { name: 'here', scopes: ['servers:read'], cidrs: ['127.0.0.0/8', '::1/128'] });
    assert.equal((await h.api('GET', '/servers', { token: inside.key })).status, 200);
    const used = (await h.api('GET', '/auth/keys', { token: h.adminToken })).body.data.find((k: { id: number }) => k.id === inside.id);
    assert.match(used.last_used_address, /127\.0\.0\.1|::1/);
    assert.ok(used.last_used_at);
  });

  it("act as their owner is now: a demoted owner's key loses those rights, a deleted owner's stops; the audit names the key", async () => {
    const owner = await tokenFor(h, 'admin', 'keys_owner');
    const s = await createServer(h);
    const { key } = await makeKey(h, owner.token, { name: 'bot', scopes: ['servers:write', 'servers:read'] });
    assert.equal((await h.api('PUT', `/servers/${s.id}`, { token: key, body: { description: 'by the bot' } })).status, 200);
    const trail = (await h.api('GET', `/servers/${s.id}/events?event_type=server_updated`, { token: h.adminToken })).body.data.events;
    assert.equal(trail[0].actor_kind, 'api_key');
    assert.equal(trail[0].actor, 'bot (key of keys_owner)');
    await h.api('PUT', `/auth/users/${owner.id}`, { token: h.adminToken, body: { role: 'viewer' } });
    expectError(await h.api('PUT', `/servers/${s.id}`, { token: key, body: { description: 'again' } }), 403, 'FORBIDDEN');
    assert.equal((await h.api('GET', `/servers/${s.id}`, { token: key })).status, 200, 'what a viewer may do, it still may');
    await h.api('DELETE', `/auth/users/${owner.id}`, { token: h.adminToken });
    expectError(await h.api('GET', `/servers/${s.id}`, { token: key }), 401, 'UNAUTHORIZED');
  });

  it('close their WebSocket when revoked, and read /metrics only with the metrics scope', async () => {
    const made = await makeKey(h, h.adminToken, { name: 'watcher', scopes: ['servers:read'] });
    const ws = await wsClient(h.url, `/ws?token=${encodeURIComponent(made.key)}`);
    assert.equal(ws.messages[0]?.type, 'connected');
    await h.api('DELETE', `/auth/keys/${made.id}`, { token: h.adminToken });
    assert.equal((await ws.closing).code, 4001);

    const noRead = await makeKey(h, h.adminToken, { name: 'metrics only', scopes: ['metrics'] });
    const refused = await wsClient(h.url, `/ws?token=${encodeURIComponent(noRead.key)}`);
    assert.equal((await refused.closing).code, 4003);
    const scrape = (token: string) => fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await scrape(noRead.key)).status, 200);
    assert.equal((await scrape(made.key)).status, 401, 'revoked');
    const reader = await makeKey(h, h.adminToken, { name: 'reader', scopes: ['servers:read'] });
    assert.equal((await scrape(reader.key)).status, 403);
  });
});

describe('API keys on a fake clock', () => {
  const clock = new FakeClock(new Date());
  let h: Harness;
  before(async () => {
    h = await startHarness({ clock, metricsIntervalMs: 3_600_000, playersPollMs: 3_600_000, banExpiryCheckMs: 3_600_000 });
  });
  after(() => h?.close());

  it('expire when they say', async () => {
    const soon = await makeKey(h, h.adminToken, {
      name: 'short',
      scopes: ['servers:read'],
      expires_at: new Date(clock.now() + 3_600_000).toISOString(),
    });
    assert.equal((await h.api('GET', '/servers', { token: soon.key })).status, 200);
    await clock.advance(3_600_000 + 1000);
    const expired = await h.api('GET', '/system/status', { token: soon.key });
    expectError(expired, 401, 'UNAUTHORIZED');
    assert.match(expired.body.error.message, /expired/);
    expectError(
      await h.api('POST', '/auth/keys', {
        token: h.adminToken,
        body: { name: 'past', scopes: ['servers:read'], expires_at: new Date(clock.now() - 1000).toISOString() },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('API keys and the rate limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ rateLimit: 3 });
  });
  after(() => h?.close());

  it('count each key on its own', async () => {
    const busy = await makeKey(h, h.adminToken, { name: 'busy', scopes: ['servers:read'] });
    const other = await makeKey(h, h.adminToken, { name: 'other', scopes: ['servers:read'] });
    for (let i = 0; i < 3; i++) assert.equal((await h.api('GET', '/servers', { token: busy.key })).status, 200);
    expectError(await h.api('GET', '/servers', { token: busy.key }), 429, 'RATE_LIMITED');
    assert.equal((await h.api('GET', '/servers', { token: other.key })).status, 200, 'another key has its own budget');
  });
});

describe('the API keys documentation', () => {
  it('gives every endpoint of the table with its scope', async () => {
    const doc = await readFile(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    for (const id of Object.keys(endpoints) as EndpointId[]) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${ENDPOINT_SCOPES[id]}\` |`));
      assert.ok(
        row?.includes(`\`${endpoints[id].method} ${endpoints[id].path}\``),
        `${id} is listed under ${ENDPOINT_SCOPES[id]} in docs/security.md (npm run build && node scripts/scopes-table.mjs)`,
      );
    }
  });
});
