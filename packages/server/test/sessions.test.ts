import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectError, startHarness, type Harness } from './helpers.js';
import { wsClient } from './games.js';

describe('sign-in sessions', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h?.close());

  const login = async (username: string, password: string, userAgent: string) => {
    const res = await h.api('POST', '/auth/login', { body: { username, password }, headers: { 'user-agent': userAgent } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.access_token as string;
  };

  it('are listed with where and what from, and one ended from another is refused at once, its WebSocket closed', async () => {
    const user = await h.userToken('viewer', 'sessions_a');
    const laptop = await login(user.username, user.password, 'Laptop Browser/1.0');
    const phone = await login(user.username, user.password, 'Phone Browser/2.0');
    const seen = (await h.api('GET', '/auth/sessions', { token: laptop })).body.data as {
      id: string;
      current: boolean;
      user_agent: string;
      address: string;
    }[];
    const mine = seen.find((s) => s.current)!;
    assert.equal(mine.user_agent, 'Laptop Browser/1.0');
    assert.match(mine.address, /127\.0\.0\.1/);
    const other = seen.find((s) => s.user_agent === 'Phone Browser/2.0')!;
    assert.equal(other.current, false);

    const ws = await wsClient(h.url, `/ws?token=${phone}`);
    assert.equal(ws.messages[0]?.type, 'connected');
    expectError(await h.api('DELETE', '/auth/sessions/not-a-session', { token: laptop }), 404, 'NOT_FOUND');
    assert.equal((await h.api('DELETE', `/auth/sessions/${other.id}`, { token: laptop })).status, 204);
    expectError(await h.api('GET', '/auth/me', { token: phone }), 401, 'UNAUTHORIZED');
    assert.equal((await ws.closing).code, 4001);
    assert.equal((await h.api('GET', '/auth/me', { token: laptop })).status, 200, 'the session that ended the other goes on');
    // Another user cannot end it.
    const stranger = await h.userToken('viewer', 'sessions_b');
    expectError(await h.api('DELETE', `/auth/sessions/${mine.id}`, { token: stranger.token }), 404, 'NOT_FOUND');
  });

  it('end on a password change, all but the one it was changed in; and everywhere at once when asked', async () => {
    const user = await h.userToken('viewer', 'sessions_c');
    const here = await login(user.username, user.password, 'Here/1');
    const there = await login(user.username, user.password, 'There/1');
    assert.equal(
      (await h.api('PUT', '/auth/password', { token: here, body: { current_password: user.password, new_password: 'another-password-9' } }))
        .status,
      200,
    );
    expectError(await h.api('GET', '/auth/me', { token: there }), 401, 'UNAUTHORIZED');
    assert.equal((await h.api('GET', '/auth/me', { token: here })).status, 200);
    assert.equal((await h.api('GET', '/auth/sessions', { token: here })).body.data.length, 1);

    const again = await login(user.username, 'another-password-9', 'Again/1');
    assert.equal((await h.api('DELETE', '/auth/sessions', { token: here })).status, 204);
    for (const token of [here, again]) expectError(await h.api('GET', '/auth/me', { token }), 401, 'UNAUTHORIZED');
  });
});
