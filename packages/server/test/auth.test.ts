import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { waitFor } from '@garrison/testkit';
import { ADMIN_PASSWORD, expectError, startHarness, tokenFor, type Harness } from './helpers.js';

describe('auth', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('logs in with the first admin and returns a bearer token with the spec claims', async () => {
    const res = await h.api('POST', '/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.error, null);
    const data = res.body.data;
    assert.equal(data.token_type, 'bearer');
    assert.equal(data.expires_in, 86400);
    assert.deepEqual(Object.keys(data.user).sort(), ['id', 'role', 'username']);
    assert.equal(data.user.role, 'admin');
    const header = jwt.decode(data.access_token, { complete: true })!;
    assert.equal(header.header.alg, 'HS256');
    const claims = header.payload as jwt.JwtPayload;
    assert.equal(claims.sub, String(data.user.id));
    assert.equal(claims.username, 'admin');
    assert.equal(claims.role, 'admin');
    assert.ok(Math.abs(claims.exp! - (Date.now() / 1000 + 86400)) < 60);
  });

  it('refuses bad credentials with 401 UNAUTHORIZED, for a wrong password and an unknown user alike', async () => {
    expectError(await h.api('POST', '/auth/login', { body: { username: 'admin', password: 'wrong-password' } }), 401, 'UNAUTHORIZED');
    expectError(await h.api('POST', '/auth/login', { body: { username: 'nobody', password: 'whatever1' } }), 401, 'UNAUTHORIZED');
  });

  it('answers 400 VALIDATION_ERROR naming the field for a bad login body', async () => {
    const missing = expectError(await h.api('POST', '/auth/login', { body: { username: 'admin' } }), 400, 'VALIDATION_ERROR');
    assert.match(missing.message, /password/);
    const wrongType = expectError(await h.api('POST', '/auth/login', { body: { username: 5, password: 'x' } }), 400, 'VALIDATION_ERROR');
    assert.match(wrongType.message, /username/);
    const malformed = expectError(await h.api('POST', '/auth/login', { raw: '{"username": "admin",' }), 400, 'VALIDATION_ERROR');
    assert.match(malformed.message, /JSON/);
    const unknown = expectError(
      await h.api('POST', '/auth/login', { body: { username: 'a', password: 'b', extra: 1 } }),
      400,
      'VALIDATION_ERROR',
    );
    assert.match(unknown.message, /extra/);
    const role = expectError(
      await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'roleless', password: 'long-enough-1', role: 'owner' } }),
      400,
      'VALIDATION_ERROR',
    );
    assert.equal(role.message, `field 'role': must be one of "admin", "viewer"`);
  });

  it('needs a valid token: missing, garbage, wrongly signed and expired tokens get 401', async () => {
    expectError(await h.api('GET', '/auth/me'), 401, 'UNAUTHORIZED');
    expectError(await h.api('GET', '/auth/me', { token: 'garbage' }), 401, 'UNAUTHORIZED');
    const forged = jwt.sign({ username: 'admin', role: 'admin' }, 'not-the-secret', { subject: '1', expiresIn: 60 });
    expectError(await h.api('GET', '/auth/me', { token: forged }), 401, 'UNAUTHORIZED');
    const none = jwt.sign({ username: 'admin', role: 'admin', sub: '1' }, '', { algorithm: 'none' });
    expectError(await h.api('GET', '/auth/me', { token: none }), 401, 'UNAUTHORIZED');
    // Three seconds, not one: the harness itself uses its admin token to make its viewer, which on a
    // loaded machine took longer than a one-second token lives (exp has one-second resolution).
    const expiring = await startHarness({ tokenTtlSeconds: 3 });
    try {
      // The token stops working within about four seconds.
      const refused = await waitFor(
        async () => {
          const res = await expiring.api('GET', '/auth/me', { token: expiring.adminToken });
          return res.status === 401 && res;
        },
        { intervalMs: 100, what: 'the token to expire' },
      );
      expectError(refused, 401, 'UNAUTHORIZED');
    } finally {
      await expiring.close();
    }
  });

  /** The admin's claims signed with the real secret, as the tester did with the leaked one (issue 29). */
  const signedHere = async (claims: Record<string, unknown>, options: jwt.SignOptions) => {
    const secret = (await readFile(join(h.dataDir, 'jwt-secret'), 'utf8')).trim();
    return jwt.sign({ username: 'admin', role: 'admin', gen: 0, ...claims }, secret, { subject: '1', ...options });
  };
  const adminSid = () => (jwt.decode(h.adminToken) as { sid: string }).sid;

  it('refuses a token without a session, even signed with the real secret (it would outlive sign-out and password changes)', async () => {
    assert.equal(
      (await h.api('GET', '/auth/me', { token: await signedHere({ sid: adminSid() }, { expiresIn: 600 }) })).status,
      200,
      'the same claims with the session are good',
    );
    const sessionless = await signedHere({}, { expiresIn: 600 });
    expectError(await h.api('GET', '/auth/me', { token: sessionless }), 401, 'UNAUTHORIZED');
    expectError(
      await h.api('POST', '/auth/users', {
        token: sessionless,
        body: { username: 'forged_admin', password: 'long-enough-1', role: 'admin' },
      }),
      401,
      'UNAUTHORIZED',
    );
    const users = (await h.api('GET', '/auth/users', { token: h.adminToken })).body.data as { username: string }[];
    assert.ok(!users.some((u) => u.username === 'forged_admin'));
  });

  it('refuses a token without an expiry, even signed with the real secret and of a live session', async () => {
    const endless = await signedHere({ sid: adminSid() }, {});
    assert.equal((jwt.decode(endless) as { exp?: number }).exp, undefined);
    expectError(await h.api('GET', '/auth/me', { token: endless }), 401, 'UNAUTHORIZED');
  });

  it('reports the caller on /auth/me and answers logout with a message', async () => {
    const me = await h.api('GET', '/auth/me', { token: h.adminToken });
    assert.equal(me.status, 200);
    assert.deepEqual(Object.keys(me.body.data).sort(), ['id', 'role', 'username']);
    assert.equal(me.body.data.username, 'admin');
    const out = await h.api('POST', '/auth/logout', { token: h.adminToken });
    assert.equal(out.status, 200);
    assert.equal(typeof out.body.data.message, 'string');
    // No blacklist: the token still works after logout.
    assert.equal((await h.api('GET', '/auth/me', { token: h.adminToken })).status, 200);
  });

  it('lets any user change their own password, checking the current one', async () => {
    const viewer = await tokenFor(h, 'viewer');
    expectError(
      await h.api('PUT', '/auth/password', {
        token: viewer.token,
        body: { current_password: 'not-it-at-all', new_password: 'new-password-1' },
      }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await h.api('PUT', '/auth/password', { token: viewer.token, body: { current_password: viewer.password, new_password: 'short' } }),
      400,
      'VALIDATION_ERROR',
    );
    const ok = await h.api('PUT', '/auth/password', {
      token: viewer.token,
      body: { current_password: viewer.password, new_password: 'new-password-1' },
    });
    assert.equal(ok.status, 200);
    assert.equal(typeof ok.body.data.message, 'string');
    expectError(
      await h.api('POST', '/auth/login', { body: { username: viewer.username, password: viewer.password } }),
      401,
      'UNAUTHORIZED',
    );
    assert.equal((await h.api('POST', '/auth/login', { body: { username: viewer.username, password: 'new-password-1' } })).status, 200);
  });

  it('manages users as admin: list, create (viewer by default), duplicate 409, delete 204', async () => {
    const created = await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'alice', password: 'alice-password' } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body.data).sort(), ['created_at', 'id', 'role', 'username']);
    assert.equal(created.body.data.role, 'viewer');
    assert.ok(!Number.isNaN(Date.parse(created.body.data.created_at)));

    expectError(
      await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'alice', password: 'other-password' } }),
      409,
      'CONFLICT',
    );
    expectError(
      await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'ALICE', password: 'other-password' } }),
      409,
      'CONFLICT',
    );
    expectError(
      await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'a b', password: 'other-password' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'bob', password: 'x', role: 'viewer' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'bob', password: 'bob-password', role: 'root' } }),
      400,
      'VALIDATION_ERROR',
    );

    const list = await h.api('GET', '/auth/users', { token: h.adminToken });
    assert.equal(list.status, 200);
    const alice = list.body.data.find((u: { username: string }) => u.username === 'alice');
    assert.deepEqual(Object.keys(alice).sort(), ['created_at', 'id', 'last_login', 'role', 'username']);
    assert.ok(!JSON.stringify(list.body).includes('password'), 'no password or hash leaves the service');
    const admin = list.body.data.find((u: { username: string }) => u.username === 'admin');
    assert.ok(admin.last_login, 'login records last_login');

    const del = await h.api('DELETE', `/auth/users/${alice.id}`, { token: h.adminToken });
    assert.equal(del.status, 204);
    expectError(await h.api('DELETE', `/auth/users/${alice.id}`, { token: h.adminToken }), 404, 'NOT_FOUND');
  });

  it("refuses to delete one's own account with 400", async () => {
    const me = await h.api('GET', '/auth/me', { token: h.adminToken });
    expectError(await h.api('DELETE', `/auth/users/${me.body.data.id}`, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
  });

  it('keeps user management to admins: a viewer gets 403 FORBIDDEN', async () => {
    const viewer = await tokenFor(h, 'viewer');
    expectError(await h.api('GET', '/auth/users', { token: viewer.token }), 403, 'FORBIDDEN');
    expectError(
      await h.api('POST', '/auth/users', { token: viewer.token, body: { username: 'eve', password: 'eve-password' } }),
      403,
      'FORBIDDEN',
    );
    expectError(await h.api('DELETE', '/auth/users/1', { token: viewer.token }), 403, 'FORBIDDEN');
  });

  it("lets an admin change a user's role or set their password, ending that user's tokens at once", async () => {
    const user = await tokenFor(h, 'viewer');
    const second = (await h.api('POST', '/auth/login', { body: { username: user.username, password: user.password } })).body.data
      .access_token;
    const promoted = await h.api('PUT', `/auth/users/${user.id}`, { token: h.adminToken, body: { role: 'admin' } });
    assert.equal(promoted.status, 200);
    assert.deepEqual(Object.keys(promoted.body.data).sort(), ['created_at', 'id', 'last_login', 'role', 'username']);
    assert.equal(promoted.body.data.role, 'admin');
    for (const token of [user.token, second]) expectError(await h.api('GET', '/auth/me', { token }), 401, 'UNAUTHORIZED');
    // Signed in again, they are what they now are.
    const asAdmin = (await h.api('POST', '/auth/login', { body: { username: user.username, password: user.password } })).body.data
      .access_token;
    assert.equal((await h.api('GET', '/auth/users', { token: asAdmin })).status, 200);

    const reset = await h.api('PUT', `/auth/users/${user.id}`, { token: h.adminToken, body: { password: 'a-new-password' } });
    assert.equal(reset.status, 200);
    assert.ok(!JSON.stringify(reset.body).includes('password_hash'));
    expectError(await h.api('GET', '/auth/me', { token: asAdmin }), 401, 'UNAUTHORIZED');
    expectError(await h.api('POST', '/auth/login', { body: { username: user.username, password: user.password } }), 401, 'UNAUTHORIZED');
    assert.equal((await h.api('POST', '/auth/login', { body: { username: user.username, password: 'a-new-password' } })).status, 200);
    // Other users' tokens are not touched.
    assert.equal((await h.api('GET', '/auth/me', { token: h.adminToken })).status, 200);

    expectError(await h.api('PUT', `/auth/users/${user.id}`, { token: h.adminToken, body: {} }), 400, 'VALIDATION_ERROR');
    expectError(
      await h.api('PUT', `/auth/users/${user.id}`, { token: h.adminToken, body: { password: 'short' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await h.api('PUT', `/auth/users/${user.id}`, { token: h.adminToken, body: { role: 'root' } }), 400, 'VALIDATION_ERROR');
    expectError(await h.api('PUT', '/auth/users/999999', { token: h.adminToken, body: { role: 'viewer' } }), 404, 'NOT_FOUND');
    const viewer = await tokenFor(h, 'viewer');
    expectError(await h.api('PUT', `/auth/users/${user.id}`, { token: viewer.token, body: { role: 'viewer' } }), 403, 'FORBIDDEN');
  });

  it('refuses to let an admin demote themself (400), and keeps their sign-in', async () => {
    const me = await tokenFor(h, 'admin');
    expectError(await h.api('PUT', `/auth/users/${me.id}`, { token: me.token, body: { role: 'viewer' } }), 400, 'VALIDATION_ERROR');
    expectError(
      await h.api('PUT', `/auth/users/${me.id}`, { token: me.token, body: { password: 'a-new-password' } }),
      400,
      'VALIDATION_ERROR',
    );
    assert.equal((await h.api('GET', '/auth/me', { token: me.token })).body.data.role, 'admin');
  });

  it("refuses a deleted user's token at once", async () => {
    const other = await tokenFor(h, 'admin');
    assert.equal((await h.api('GET', '/auth/me', { token: other.token })).status, 200);
    assert.equal((await h.api('DELETE', `/auth/users/${other.id}`, { token: h.adminToken })).status, 204);
    expectError(await h.api('GET', '/auth/me', { token: other.token }), 401, 'UNAUTHORIZED');
    expectError(await h.api('GET', '/servers', { token: other.token }), 401, 'UNAUTHORIZED');
  });

  it('keeps tokens valid across a restart (the secret lives in the data dir, mode 0600)', async () => {
    const { stat } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const mode = (await stat(join(h.dataDir, 'jwt-secret'))).mode & 0o777;
    assert.equal(mode, 0o600);
    const first = await startHarness();
    const token = first.adminToken;
    await first.server.close();
    const second = await startHarness({ dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    try {
      assert.equal((await second.api('GET', '/auth/me', { token })).status, 200);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
