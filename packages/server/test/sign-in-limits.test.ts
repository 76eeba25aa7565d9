import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { FakeClock } from '@garrison/server';
import type { ApiResponse } from '@garrison/testkit/harness';
import { expectError, startHarness, withDatabase, type Harness } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

// Security issue 29, part 2: the login limits met whatever spelling of the path the router answers, an
// account's wrong second steps pausing its sign-ins, and a first step's token signing in once.

const codeAt = (secret: string, at: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
const QUIET = { metricsIntervalMs: 3_600_000, playersPollMs: 3_600_000, banExpiryCheckMs: 3_600_000 };

async function enrol(h: Harness, token: string, clock: FakeClock): Promise<string> {
  return (await enrolWithCodes(h, token, clock)).secret;
}

async function enrolWithCodes(h: Harness, token: string, clock: FakeClock) {
  const setup = (await h.api('POST', '/auth/2fa/setup', { token })).body.data as { secret: string };
  const enabled = await h.api('POST', '/auth/2fa/enable', { token, body: { code: codeAt(setup.secret, clock.now()) } });
  assert.equal(enabled.status, 200);
  return { secret: setup.secret, recovery: enabled.body.data.recovery_codes as string[] };
}

/**
 * Sends `send(i)` until it is refused with 429; every earlier answer must be `status`. Returns how many
 * were answered before. A limit of `limit` a minute refuses within `limit + 1` tries.
 */
async function triesUntilLimited(limit: number, status: number, send: (i: number) => Promise<ApiResponse>): Promise<number> {
  for (let i = 0; i <= limit; i++) {
    const res = await send(i);
    if (res.status === 429) {
      expectError(res, 429, 'RATE_LIMITED');
      return i;
    }
    assert.equal(res.status, status, `try ${i}: ${JSON.stringify(res.body)}`);
  }
  assert.fail(`${limit + 1} tries, none refused with 429: the limit was skipped`);
}

describe('the login limit, whatever spelling of the path the router answers', () => {
  const LIMIT = 5;
  let h: Harness;
  before(async () => {
    h = await startHarness({ loginRateLimit: LIMIT, ...QUIET });
  });
  after(() => h?.close());

  it('counts /auth/login/, /auth/LOGIN and /auth/Login/ as /auth/login', async () => {
    const spellings = ['/auth/login/', '/auth/LOGIN', '/auth/Login/'];
    const wrong = { username: 'admin', password: 'not-the-password' };
    // The router answers each spelling (401: a wrong password), and each counts.
    const answered = await triesUntilLimited(LIMIT, 401, (i) => h.api('POST', spellings[i % spellings.length], { body: wrong }));
    assert.ok(answered >= 1, 'some tries were answered before the limit');
    expectError(await h.api('POST', '/auth/login', { body: wrong }), 429, 'RATE_LIMITED');
  });
});

describe("the second step's limit per address, whatever the spelling", () => {
  const LIMIT = 5;
  let h: Harness;
  before(async () => {
    h = await startHarness({ loginRateLimit: LIMIT, ...QUIET });
  });
  after(() => h?.close());

  it('counts /auth/login/2fa/ and /auth/LOGIN/2FA as /auth/login/2fa', async () => {
    const spellings = ['/auth/login/2fa/', '/auth/LOGIN/2FA', '/auth/login/2FA/'];
    const guess = { mfa_token: 'not-a-token', code: '123456' };
    await triesUntilLimited(LIMIT, 401, (i) => h.api('POST', spellings[i % spellings.length], { body: guess }));
    expectError(await h.api('POST', '/auth/login/2fa', { body: guess }), 429, 'RATE_LIMITED');
  });
});

describe("an account's wrong second steps, on a fake clock", () => {
  const clock = new FakeClock(new Date('2026-11-26T12:00:10Z'));
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    h = await startHarness({ clock, webhookAllowPrivate: true, ...QUIET });
    receiver = await startReceiver();
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  const login = (user: { username: string; password: string }) =>
    h
      .api('POST', '/auth/login', { body: { username: user.username, password: user.password } })
      .then((res) => res.body.data.mfa_token as string);
  const second = (mfa_token: string, code: string) => h.api('POST', '/auth/login/2fa', { body: { mfa_token, code } });

  it('pause after 10 in a row over several mfa_tokens, 1 min then doubling; the admins are told; a right code ends the count', async () => {
    const hook = await h.api('POST', '/webhooks', {
      token: h.adminToken,
      body: { url: receiver.url, kind: 'generic', events: ['auth.second_step_paused'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const user = await h.userToken('viewer', 'paused_user');
    const secret = await enrol(h, user.token, clock);
    const wrong = () => codeAt(secret, clock.now() + 10 * 60_000);

    // A fresh first step every third guess: the count is the account's, not the token's.
    let mfa = '';
    for (let i = 0; i < 10; i++) {
      if (i % 3 === 0) mfa = await login(user);
      expectError(await second(mfa, wrong()), 401, 'UNAUTHORIZED');
    }
    mfa = await login(user);
    const paused = await second(mfa, codeAt(secret, clock.now()));
    expectError(paused, 429, 'RATE_LIMITED');
    assert.equal(paused.headers.get('retry-after'), '60', 'even the right code waits the minute');
    assert.match(paused.body.error.message, /2026-11-26T12:01:10\.000Z/, 'the answer says when');

    const events = await withDatabase(h, (knex) =>
      knex('account_events').where({ user_id: user.id }).select('event_type', 'detail', 'username'),
    );
    assert.deepEqual(
      events.map((e) => [e.event_type, e.username, JSON.parse(e.detail)]),
      [['second_step_paused', 'paused_user', { failures: 10, paused_until: '2026-11-26T12:01:10.000Z' }]],
    );
    const [told] = await receiver.waitForCount(1, 'the webhook told of the pause');
    const payload = told.json as { type: string; data: Record<string, unknown> };
    assert.equal(payload.type, 'auth.second_step_paused');
    assert.deepEqual(payload.data, { user_id: user.id, username: 'paused_user', failures: 10, paused_until: '2026-11-26T12:01:10.000Z' });

    // After the pause, one more wrong code pauses twice as long.
    await clock.advance(61_000);
    expectError(await second(mfa, wrong()), 401, 'UNAUTHORIZED');
    const longer = await second(mfa, codeAt(secret, clock.now()));
    expectError(longer, 429, 'RATE_LIMITED');
    assert.equal(longer.headers.get('retry-after'), '120');
    await receiver.waitForCount(2, 'the second pause told too');

    await clock.advance(121_000);
    assert.equal((await second(mfa, codeAt(secret, clock.now()))).status, 200, 'the right code once the pause is over');
    // The count starts again from nothing: nine wrong codes do not pause.
    mfa = await login(user);
    for (let i = 0; i < 9; i++) expectError(await second(mfa, wrong()), 401, 'UNAUTHORIZED');
    await clock.advance(30_000);
    assert.equal((await second(mfa, codeAt(secret, clock.now()))).status, 200);
  });

  it("take a first step's token for one successful second step only", async () => {
    const user = await h.userToken('viewer', 'once_user');
    const secret = await enrol(h, user.token, clock);
    const mfa = await login(user);
    await clock.advance(30_000);
    assert.equal((await second(mfa, codeAt(secret, clock.now()))).status, 200);
    await clock.advance(30_000);
    // A new code, never used: still refused, the token signed in once already.
    const again = expectError(await second(mfa, codeAt(secret, clock.now())), 401, 'UNAUTHORIZED');
    assert.match(again.message, /sign in again/);
    // Two first steps within the same second are two tokens, each good once.
    const [a, b] = [await login(user), await login(user)];
    assert.notEqual(a, b);
    assert.equal((await second(a, codeAt(secret, clock.now() + 30_000))).status, 200);
    await clock.advance(60_000);
    assert.equal((await second(b, codeAt(secret, clock.now()))).status, 200);
  });

  it('end with two-factor sign-in: one who turns it off (or is reset) and enrols again starts from no wrong codes', async () => {
    const user = await h.userToken('viewer', 'reset_user');
    const { secret, recovery } = await enrolWithCodes(h, user.token, clock);
    const mfa = await login(user);
    for (let i = 0; i < 10; i++) expectError(await second(mfa, codeAt(secret, clock.now() + 10 * 60_000)), 401, 'UNAUTHORIZED');
    expectError(await second(mfa, recovery[0]), 429, 'RATE_LIMITED');
    assert.equal(
      (await h.api('POST', '/auth/2fa/disable', { token: user.token, body: { password: user.password, code: recovery[1] } })).status,
      200,
    );
    const again = await enrol(h, user.token, clock);
    await clock.advance(30_000);
    assert.equal((await second(await login(user), codeAt(again, clock.now()))).status, 200, 'not paused');
  });
});
