import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { ADMIN_PASSWORD, expectError, startHarness, type Harness } from './helpers.js';

/** Failed sign-ins sent as if through a proxy that says the client is `client`. */
const failedLogin = (h: Harness, client: string | null) =>
  h.api('POST', '/auth/login', {
    body: { username: 'admin', password: 'wrong password' },
    headers: client === null ? {} : { 'x-forwarded-for': client },
  });

async function makeKey(h: Harness, cidrs: string[]) {
  const res = await h.api('POST', '/auth/keys', {
    token: h.adminToken,
    body: { name: `from ${cidrs.join(' ')}`, scopes: ['servers:read'], cidrs },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data as { id: number; key: string };
}

const listWith = (h: Harness, key: string, forwardedFor: string) =>
  h.api('GET', '/servers', { token: key, headers: { 'x-forwarded-for': forwardedFor } });

/** Whether a WebSocket opened with the key and this X-Forwarded-For is let in (4001: refused). */
function wsLetIn(h: Harness, key: string, forwardedFor: string): Promise<boolean> {
  const socket = new WebSocket(`${h.url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(key)}`, {
    headers: { 'x-forwarded-for': forwardedFor },
  });
  return new Promise<boolean>((resolve, reject) => {
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'connected') resolve(true);
      socket.close();
    });
    socket.on('close', (code) => (code === 4001 ? resolve(false) : resolve(true)));
    socket.on('error', reject);
  });
}

describe('a reverse proxy that is trusted (GARRISON_TRUST_PROXY)', () => {
  let h: Harness;
  before(async () => {
    // The tests' requests come from the loopback address: that is the "proxy" here.
    h = await startHarness({ trustProxy: ['127.0.0.1', '::1', '10.0.0.0/8'], loginRateLimit: 3 });
  });
  after(() => h?.close());

  it('counts the login limit by the forwarded address: one client at its limit does not lock out the others', async () => {
    for (let i = 0; i < 3; i++) expectError(await failedLogin(h, '198.51.100.7'), 401, 'UNAUTHORIZED');
    expectError(await failedLogin(h, '198.51.100.7'), 429, 'RATE_LIMITED');
    expectError(await failedLogin(h, '198.51.100.8'), 401, 'UNAUTHORIZED');
    // The client's own left part of the header is its word alone: it cannot move itself to a fresh bucket.
    expectError(await failedLogin(h, '203.0.113.99, 198.51.100.7'), 429, 'RATE_LIMITED');
    expectError(await failedLogin(h, '203.0.113.98, 198.51.100.7, 10.1.2.3'), 429, 'RATE_LIMITED');
  });

  it("checks a key's address ranges against the forwarded address, over HTTP and WebSocket", async () => {
    const { id, key } = await makeKey(h, ['203.0.113.0/24']);
    assert.equal((await listWith(h, key, '203.0.113.7')).status, 200);
    expectError(await listWith(h, key, '198.51.100.1'), 401, 'UNAUTHORIZED');
    expectError(await listWith(h, key, '203.0.113.7, 198.51.100.1'), 401, 'UNAUTHORIZED');
    assert.equal((await listWith(h, key, '198.51.100.1, 203.0.113.7, 10.0.0.5')).status, 200, 'past a second trusted proxy');
    assert.equal(await wsLetIn(h, key, '203.0.113.7'), true);
    assert.equal(await wsLetIn(h, key, '198.51.100.1'), false);
    const used = (await h.api('GET', '/auth/keys', { token: h.adminToken })).body.data.find((k: { id: number }) => k.id === id);
    assert.equal(used.last_used_address, '203.0.113.7');
  });

  it("shows the forwarded address as a session's where-from", async () => {
    const login = await h.api('POST', '/auth/login', {
      body: { username: 'admin', password: ADMIN_PASSWORD },
      headers: { 'x-forwarded-for': '2001:db8::42', 'user-agent': 'behind-the-proxy' },
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const sessions = (await h.api('GET', '/auth/sessions', { token: login.body.data.access_token })).body.data as {
      current: boolean;
      address: string;
    }[];
    assert.equal(sessions.find((s) => s.current)!.address, '2001:db8::42');
  });
});

describe('X-Forwarded-For without a trusted proxy', () => {
  for (const [what, trustProxy] of [
    ['unset', []],
    ['from a peer that is not one of the trusted proxies', ['192.0.2.1', '10.0.0.0/8']],
  ] as const) {
    it(`is ignored (${what}): every client behind it shares the peer's login limit, and a key's ranges see the peer`, async () => {
      const h = await startHarness({ trustProxy: [...trustProxy], loginRateLimit: 3 });
      try {
        const { key } = await makeKey(h, ['203.0.113.0/24']);
        expectError(await listWith(h, key, '203.0.113.7'), 401, 'UNAUTHORIZED');
        assert.equal(await wsLetIn(h, key, '203.0.113.7'), false);
        // The harness signed in from here already; the spoofed addresses all land in that one bucket.
        let refused = 0;
        for (let i = 0; i < 4; i++) if ((await failedLogin(h, `198.51.100.${i}`)).status === 429) refused++;
        assert.ok(refused >= 1, 'the fourth attempt at the latest is refused, whatever the header says');
      } finally {
        await h.close();
      }
    });
  }
});
