import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import { endpoints, type AuditEntry } from '@garrison/core';
import { ENDPOINT_AUDIT, UNAUDITED_ENDPOINTS } from '../src/audit/coverage.js';
import { createServer, expectError, startHarness, type Harness } from './helpers.js';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('the audit walk: every changing endpoint is audited, or listed with a reason', () => {
  it('finds each non-GET endpoint of core in exactly one of the two tables', () => {
    const audited = ENDPOINT_AUDIT as Record<string, readonly string[] | undefined>;
    const unaudited = UNAUDITED_ENDPOINTS as Record<string, string | undefined>;
    const missing: string[] = [];
    for (const [id, endpoint] of Object.entries(endpoints)) {
      if (endpoint.method === 'GET') {
        assert.ok(!(id in audited) && !(id in unaudited), `${id} is a read: it has no place in the audit tables`);
        continue;
      }
      const listed = Number(id in audited) + Number(id in unaudited);
      if (listed === 0) missing.push(`${endpoint.method} ${endpoint.path} (${id})`);
      assert.ok(listed <= 1, `${id} is both audited and unaudited`);
      if (id in audited) assert.ok(audited[id]!.length > 0, `${id} records no type`);
      if (id in unaudited) assert.ok(unaudited[id]!.length > 20, `${id}: say why it is not audited`);
    }
    assert.deepEqual(
      missing,
      [],
      'record an entry in the service, and add it to ENDPOINT_AUDIT (audit/coverage.ts), or list it in UNAUDITED_ENDPOINTS with a reason',
    );
    for (const id of [...Object.keys(audited), ...Object.keys(unaudited)]) assert.ok(id in endpoints, `${id} is no endpoint of core`);
  });

  it('finds each type the table promises recorded by a service', () => {
    const source = sourceFiles(SRC)
      .filter((f) => !f.endsWith(join('audit', 'coverage.ts')))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const [id, types] of Object.entries(ENDPOINT_AUDIT)) {
      for (const type of types ?? []) assert.ok(source.includes(`'${type}'`), `${id} promises '${type}', which no service records`);
    }
  });
});

describe('the global audit trail over HTTP', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ webhookAllowPrivate: true });
  });
  after(() => h?.close());

  const trail = async (query = '') => {
    const res = await h.api('GET', `/audit${query}`, { token: h.adminToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { total: number; entries: AuditEntry[] };
  };
  const latest = async (type: string) => (await trail(`?event_type=${type}&limit=1`)).entries[0];

  it('is for admins only', async () => {
    expectError(await h.api('GET', '/audit', { token: h.viewerToken }), 403, 'FORBIDDEN');
  });

  it("keeps a deleted server's history, and records the deletion", async () => {
    const s = await createServer(h, { name: 'Short-lived' });
    assert.equal((await h.api('PUT', `/servers/${s.id}`, { token: h.adminToken, body: { description: 'soon gone' } })).status, 200);
    assert.equal((await h.api('DELETE', `/servers/${s.id}`, { token: h.adminToken })).status, 204);
    const { entries } = await trail(`?server_id=${s.id}`);
    assert.deepEqual(
      entries.map((e) => e.event_type),
      ['server_deleted', 'server_updated', 'server_created'],
    );
    const deleted = entries[0];
    assert.equal(deleted.actor, 'admin');
    assert.equal(deleted.actor_kind, 'user');
    assert.equal(deleted.target_kind, 'server');
    assert.equal(deleted.target_id, String(s.id));
    assert.equal(deleted.target_name, 'Short-lived');
    assert.match(deleted.hash, /^[0-9a-f]{64}$/);
    assert.equal(deleted.prev_hash, entries[1].hash, 'each entry names the one before it');
    // The per-server trail of the contract answers as before: the server is gone.
    expectError(await h.api('GET', `/servers/${s.id}/events`, { token: h.adminToken }), 404, 'NOT_FOUND');
  });

  it('records users, role changes, API keys, sessions ended and two-factor changes, each with its actor', async () => {
    const made = await h.api('POST', '/auth/users', {
      token: h.adminToken,
      body: { username: 'audited_user', password: 'a-password-1', role: 'viewer' },
    });
    assert.equal(made.status, 201);
    const userId = made.body.data.id as number;
    assert.equal((await h.api('PUT', `/auth/users/${userId}`, { token: h.adminToken, body: { role: 'admin' } })).status, 200);
    const created = await latest('user_created');
    assert.deepEqual(
      [created?.target_kind, created?.target_name, created?.actor, created?.server_id],
      ['user', 'audited_user', 'admin', null],
    );
    const role = await latest('user_role_changed');
    assert.deepEqual(role?.detail, { from: 'viewer', to: 'admin' });

    const login = await h.api('POST', '/auth/login', { body: { username: 'audited_user', password: 'a-password-1' } });
    const token = login.body.data.access_token as string;
    const key = await h.api('POST', '/auth/keys', { token, body: { name: 'audited bot', scopes: ['servers:read'] } });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    assert.equal((await h.api('DELETE', `/auth/keys/${key.body.data.id}`, { token })).status, 204);
    assert.deepEqual(
      [(await latest('api_key_created'))?.target_name, (await latest('api_key_created'))?.actor],
      ['audited bot', 'audited_user'],
    );
    assert.equal((await latest('api_key_revoked'))?.target_id, String(key.body.data.id));

    const setup = await h.api('POST', '/auth/2fa/setup', { token });
    const code = () => TOTP.generate({ secret: Secret.fromBase32(setup.body.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    assert.equal((await h.api('POST', '/auth/2fa/enable', { token, body: { code: code() } })).status, 200);
    assert.equal((await latest('two_factor_enabled'))?.target_name, 'audited_user');

    const other = await h.api('POST', '/auth/login', { body: { username: 'audited_user', password: 'a-password-1' } });
    assert.ok(other.body.data.mfa_token, 'a second sign-in needs the code');
    const sessions = (await h.api('GET', '/auth/sessions', { token })).body.data as { id: string; current: boolean }[];
    const mine = sessions.find((s) => s.current)!;
    assert.equal((await h.api('DELETE', `/auth/sessions/${mine.id}`, { token })).status, 204);
    const ended = await latest('session_ended');
    assert.deepEqual([ended?.target_kind, ended?.target_id, ended?.actor], ['session', mine.id, 'audited_user']);

    assert.equal((await h.api('DELETE', `/auth/users/${userId}`, { token: h.adminToken })).status, 204);
    const gone = await latest('user_deleted');
    assert.deepEqual([gone?.target_id, gone?.target_name], [String(userId), 'audited_user']);
    // Filters: by actor, by kind of target.
    const byUser = await trail('?actor=audited_user');
    assert.ok(byUser.entries.every((e) => e.actor === 'audited_user'));
    assert.deepEqual(
      new Set(byUser.entries.map((e) => e.event_type)),
      new Set(['api_key_created', 'api_key_revoked', 'two_factor_enabled', 'session_ended']),
    );
    assert.ok((await trail('?target_kind=user')).entries.every((e) => e.target_kind === 'user'));
  });

  it('records webhooks and node drains', async () => {
    const hook = await h.api('POST', '/webhooks', {
      token: h.adminToken,
      body: { url: 'http://127.0.0.1:9/secret-path', kind: 'generic', events: ['server.crashed'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const id = hook.body.data.id as number;
    assert.equal((await h.api('PUT', `/webhooks/${id}`, { token: h.adminToken, body: { enabled: false } })).status, 200);
    assert.equal((await h.api('POST', `/webhooks/${id}/rotate-secret`, { token: h.adminToken })).status, 200);
    assert.equal((await h.api('DELETE', `/webhooks/${id}`, { token: h.adminToken })).status, 204);
    const { entries } = await trail('?target_kind=webhook');
    assert.deepEqual(entries.map((e) => e.event_type).slice(0, 4), [
      'webhook_deleted',
      'webhook_secret_rotated',
      'webhook_updated',
      'webhook_created',
    ]);
    assert.ok(
      entries.every((e) => e.target_name === '127.0.0.1:9'),
      'named by host: the path of a webhook URL may be its secret',
    );
    assert.ok(!JSON.stringify(entries).includes('secret-path'));

    const [node] = (await h.api('GET', '/nodes', { token: h.adminToken })).body.data as { id: string }[];
    assert.equal((await h.api('PUT', `/nodes/${node.id}`, { token: h.adminToken, body: { draining: true } })).status, 200);
    assert.equal((await h.api('PUT', `/nodes/${node.id}`, { token: h.adminToken, body: { draining: false } })).status, 200);
    const drains = (await trail('?target_kind=node')).entries.map((e) => [e.event_type, e.target_id]);
    assert.deepEqual(drains.slice(0, 2), [
      ['node_undrained', node.id],
      ['node_drained', node.id],
    ]);
  });

  it('pages, filters by time, and exports JSON lines oldest first, streamed', async () => {
    const all = await trail('?limit=500');
    assert.ok(all.total >= 10);
    const page = await trail('?limit=2&offset=1');
    assert.deepEqual(
      page.entries.map((e) => e.id),
      all.entries.slice(1, 3).map((e) => e.id),
    );
    const middle = all.entries[Math.floor(all.entries.length / 2)];
    const since = await trail(`?since=${encodeURIComponent(middle.timestamp)}&limit=500`);
    assert.ok(since.entries.every((e) => e.timestamp >= middle.timestamp));
    const until = await trail(`?until=${encodeURIComponent(middle.timestamp)}&limit=500`);
    assert.ok(until.entries.every((e) => e.timestamp < middle.timestamp));
    assert.equal(since.total + until.total, all.total);

    for (const request of [
      fetch(`${h.url}/api/audit?format=jsonl`, { headers: { authorization: `Bearer ${h.adminToken}` } }),
      fetch(`${h.url}/api/audit`, { headers: { authorization: `Bearer ${h.adminToken}`, accept: 'application/x-ndjson' } }),
    ]) {
      const res = await request;
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
      assert.equal(res.headers.get('content-length'), null, 'streamed, not buffered');
      const lines = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as AuditEntry);
      assert.deepEqual(
        lines.map((e) => e.id),
        [...all.entries].reverse().map((e) => e.id),
      );
      for (let i = 1; i < lines.length; i++) assert.equal(lines[i].prev_hash, lines[i - 1].hash);
    }
    const filtered = await fetch(`${h.url}/api/audit?format=jsonl&target_kind=webhook`, {
      headers: { authorization: `Bearer ${h.adminToken}` },
    });
    assert.ok(
      (await filtered.text())
        .trim()
        .split('\n')
        .every((l) => (JSON.parse(l) as AuditEntry).target_kind === 'webhook'),
    );
    expectError(await h.api('GET', '/audit?since=yesterday', { token: h.adminToken }), 400, 'VALIDATION_ERROR');
    // Shaped like a date, yet no calendar has it: a 400 too, never a 500 (an attack pass found these).
    for (const since of ['2026-13-45', '2026-11-27T25:00', '2026-11-27T10:00%2B99:99']) {
      expectError(await h.api('GET', `/audit?since=${since}`, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
      expectError(await h.api('GET', `/audit?format=jsonl&until=${since}`, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
    }
  });
});
