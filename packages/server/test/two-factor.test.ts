import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { FakeClock } from '@garrison/server';
import { expectError, startHarness, withDatabase, type Harness } from './helpers.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient } from '@garrison/testkit/harness';
import { garrison, serveProcess } from './cli-run.js';

/** The code an authenticator app shows for `secret` at `at` (ms). */
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

async function enrol(h: Harness, token: string, clock: FakeClock) {
  const setup = (await h.api('POST', '/auth/2fa/setup', { token })).body.data as { otpauth_url: string; secret: string };
  const enabled = await h.api('POST', '/auth/2fa/enable', { token, body: { code: codeAt(setup.secret, clock.now()) } });
  assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
  return { ...setup, recovery: enabled.body.data.recovery_codes as string[] };
}

const QUIET = { metricsIntervalMs: 3_600_000, playersPollMs: 3_600_000, banExpiryCheckMs: 3_600_000 };

describe('two-factor sign-in (TOTP) on a fake clock', () => {
  const clock = new FakeClock(new Date('2026-11-26T12:00:10Z'));
  let h: Harness;
  before(async () => {
    h = await startHarness({ clock, ...QUIET });
  });
  after(() => h?.close());

  const login = (username: string, password: string) => h.api('POST', '/auth/login', { body: { username, password } });
  const second = (mfa_token: string, code: string) => h.api('POST', '/auth/login/2fa', { body: { mfa_token, code } });

  it('enrols with an app, then asks for a code at sign-in; a code is good once, a step either side', async () => {
    const user = await h.userToken('viewer', 'totp_user');
    const plain = await login(user.username, user.password);
    assert.deepEqual(
      Object.keys(plain.body.data).sort(),
      ['access_token', 'expires_in', 'token_type', 'user'],
      "without 2FA, the contract's answer",
    );

    const setup = (await h.api('POST', '/auth/2fa/setup', { token: user.token })).body.data;
    const url = new URL(setup.otpauth_url);
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.host, 'totp');
    assert.equal(decodeURIComponent(url.pathname), '/Garrison:totp_user');
    assert.deepEqual(
      [url.searchParams.get('algorithm'), url.searchParams.get('digits'), url.searchParams.get('period'), url.searchParams.get('secret')],
      ['SHA1', '6', '30', setup.secret],
    );
    const wrong = codeAt(setup.secret, clock.now() + 120_000);
    expectError(await h.api('POST', '/auth/2fa/enable', { token: user.token, body: { code: wrong } }), 400, 'VALIDATION_ERROR');
    // Six characters that are not six bytes (found by the fuzzer: the TOTP library threw on them).
    expectError(await h.api('POST', '/auth/2fa/enable', { token: user.token, body: { code: 'ò¸ñ§ ñ' } }), 400, 'VALIDATION_ERROR');
    const enabled = await h.api('POST', '/auth/2fa/enable', { token: user.token, body: { code: codeAt(setup.secret, clock.now()) } });
    const recovery = enabled.body.data.recovery_codes as string[];
    assert.equal(new Set(recovery).size, 10);
    const stored = await withDatabase(h, (knex) => knex('users').where({ username: 'totp_user' }).first('totp_secret'));
    assert.ok(stored.totp_secret.startsWith('v1:') && !stored.totp_secret.includes(setup.secret), 'the secret is kept encrypted');
    const codesStored = JSON.stringify(await withDatabase(h, (knex) => knex('recovery_codes').select('code_sha256')));
    assert.ok(!recovery.some((c) => codesStored.includes(c)), 'recovery codes are kept hashed');
    expectError(await h.api('POST', '/auth/2fa/setup', { token: user.token }), 409, 'CONFLICT');

    const first = await login(user.username, user.password);
    assert.deepEqual(first.body.data.mfa_required, true);
    const mfa = first.body.data.mfa_token as string;
    expectError(await h.api('GET', '/auth/me', { token: mfa }), 401, 'UNAUTHORIZED');
    expectError(await second(mfa, codeAt(setup.secret, clock.now())), 401, 'UNAUTHORIZED');
    // Two steps on: the one before now was never used, the one before that is out of the window.
    await clock.advance(60_000);
    expectError(await second(mfa, codeAt(setup.secret, clock.now() - 60_000)), 401, 'UNAUTHORIZED');
    const signedIn = await second(mfa, codeAt(setup.secret, clock.now() - 30_000));
    assert.equal(signedIn.status, 200, 'the step before is accepted');
    assert.equal((await h.api('GET', '/auth/me', { token: signedIn.body.data.access_token })).body.data.username, 'totp_user');
    // A first step's token signs in once: each sign-in below starts with a first step of its own.
    const firstStep = async () => (await login(user.username, user.password)).body.data.mfa_token as string;
    const again = await firstStep();
    expectError(await second(again, codeAt(setup.secret, clock.now() - 30_000)), 401, 'UNAUTHORIZED');
    assert.equal((await second(again, codeAt(setup.secret, clock.now() + 30_000))).status, 200, 'the step after too');
    const late = await firstStep();
    expectError(await second(late, codeAt(setup.secret, clock.now())), 401, 'UNAUTHORIZED');

    assert.equal((await second(late, recovery[0].toUpperCase())).status, 200, 'a recovery code, in any case');
    expectError(await second(await firstStep(), recovery[0]), 401, 'UNAUTHORIZED');
    assert.equal((await h.api('GET', '/auth/2fa', { token: user.token })).body.data.recovery_codes_left, 9);

    expectError(
      await h.api('POST', '/auth/2fa/disable', { token: user.token, body: { password: 'wrong-password-1', code: recovery[1] } }),
      401,
      'UNAUTHORIZED',
    );
    assert.equal(
      (await h.api('POST', '/auth/2fa/disable', { token: user.token, body: { password: user.password, code: recovery[1] } })).status,
      200,
    );
    assert.ok((await login(user.username, user.password)).body.data.access_token, 'a password alone again');
  });

  it('is turned off by garrison admin reset-2fa for a locked-out user', async () => {
    const user = await h.userToken('admin', 'locked_out');
    await enrol(h, user.token, clock);
    assert.equal((await login(user.username, user.password)).body.data.mfa_required, true);
    const run = await garrison(['admin', 'reset-2fa', 'locked_out', '--data-dir', h.dataDir], {
      env: h.databaseUrl ? { GARRISON_DATABASE_URL: h.databaseUrl } : {},
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /two-factor sign-in of locked_out is off/);
    assert.ok((await login(user.username, user.password)).body.data.access_token);
  });
});

describe('two-factor sign-in required of admins', () => {
  // `garrison serve` of its own: the harness would make its viewer with an admin token that may not yet.
  it('lets an admin without it sign in only to enrol; viewers are not asked', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-2fa-'));
    const { url, process: service } = await serveProcess(['--data-dir', dataDir], {
      GARRISON_REQUIRE_2FA_FOR_ADMINS: '1',
      GARRISON_ADMIN_PASSWORD: 'policy-admin-password-1',
    });
    try {
      const api = apiClient(url);
      const token = (await api('POST', '/auth/login', { body: { username: 'admin', password: 'policy-admin-password-1' } })).body.data
        .access_token as string;
      const refused = await api('GET', '/servers', { token });
      expectError(refused, 403, 'FORBIDDEN');
      assert.match(refused.body.error.message, /enrol/);
      assert.equal((await api('GET', '/auth/2fa', { token })).body.data.required, true);
      const setup = (await api('POST', '/auth/2fa/setup', { token })).body.data;
      assert.equal((await api('POST', '/auth/2fa/enable', { token, body: { code: codeAt(setup.secret, Date.now()) } })).status, 200);
      assert.equal((await api('GET', '/servers', { token })).status, 200, 'once enrolled, the same session goes on');
      assert.equal(
        (await api('POST', '/auth/users', { token, body: { username: 'policy_viewer', password: 'viewer-password-1', role: 'viewer' } }))
          .status,
        201,
      );
      const viewer = (await api('POST', '/auth/login', { body: { username: 'policy_viewer', password: 'viewer-password-1' } })).body.data
        .access_token as string;
      assert.equal((await api('GET', '/servers', { token: viewer })).status, 200, 'a viewer is not asked');
    } finally {
      await service.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('two-factor codes and the login limit', () => {
  const clock = new FakeClock(new Date('2026-11-26T12:00:10Z'));
  let h: Harness;
  before(async () => {
    // The harness's own sign-ins and the user's make 4 of the 6 a minute.
    h = await startHarness({ clock, loginRateLimit: 6, ...QUIET });
  });
  after(() => h?.close());

  it('counts each second step as a login attempt', async () => {
    const user = await h.userToken('viewer', 'guesser');
    await enrol(h, user.token, clock);
    const mfa = (await h.api('POST', '/auth/login', { body: { username: user.username, password: user.password } })).body.data.mfa_token;
    expectError(await h.api('POST', '/auth/login/2fa', { body: { mfa_token: mfa, code: '000000' } }), 401, 'UNAUTHORIZED');
    expectError(await h.api('POST', '/auth/login/2fa', { body: { mfa_token: mfa, code: '000001' } }), 401, 'UNAUTHORIZED');
    expectError(await h.api('POST', '/auth/login/2fa', { body: { mfa_token: mfa, code: '000002' } }), 429, 'RATE_LIMITED');
  });
});
