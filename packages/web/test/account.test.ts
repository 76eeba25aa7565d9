import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { browserSuite, screenshot } from './browser.js';

const PASSWORD = 'admin-password-1';

// The Account page: an admin makes an API key limited to one server, copies it once, a bot uses
// it, the admin revokes it and the bot is refused at once; sessions are listed, ended, ended everywhere.
describe('the account page: sessions and API keys', () => {
  const suite = browserSuite({ garrison: { adminPassword: PASSWORD, rateLimit: 60 } });

  it('makes a key with scopes and a server, shows it once, and revokes it', { timeout: 120_000 }, async () => {
    const { g } = suite;
    const made = await g.api('POST', '/servers', {
      token: g.adminToken,
      body: { name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2402, rcon_port: 2406 },
    });
    await g.api('POST', '/servers', {
      token: g.adminToken,
      body: { name: 'Bravo', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2502, rcon_port: 2506 },
    });
    const { page, errors } = await suite.signedInPage({ username: 'admin', password: PASSWORD });
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();

    await page.getByRole('button', { name: 'New key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name').fill('Discord bot');
    await dialog.getByRole('checkbox', { name: /servers:control/ }).check();
    await dialog.getByLabel(/^Servers/).selectOption({ label: 'Alpha' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    const key = (await page.getByTestId('new-key').locator('code').textContent()) ?? '';
    assert.match(key, /^gar_\d+_[A-Za-z0-9_-]{43}$/);
    const row = page.locator('tr[data-key-id]');
    await row.getByText('servers:read, servers:control').waitFor();
    await screenshot(page, 'account-keys-desktop');

    const listed = await g.api('GET', '/servers', { token: key });
    assert.deepEqual(
      listed.body.data.map((s: { name: string }) => s.name),
      ['Alpha'],
      'the bot sees its one server',
    );
    assert.equal(
      (await g.api('POST', `/servers/${made.body.data.id}/stop`, { token: key })).status,
      409,
      'and may control it (it is not running)',
    );

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke Discord bot' }).click();
    await page.getByRole('dialog', { name: 'Revoke Discord bot?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No keys.').waitFor();
    assert.equal((await g.api('GET', '/servers', { token: key })).status, 401);
    assert.deepEqual(errors, []);
  });

  it('lists the sessions, ends another one, and signs out everywhere', { timeout: 120_000 }, async () => {
    const { g } = suite;
    const elsewhere = await g.api('POST', '/auth/login', {
      body: { username: 'admin', password: PASSWORD },
      headers: { 'user-agent': 'Elsewhere Bot/3' },
    });
    const otherToken = elsewhere.body.data.access_token as string;
    const { page, errors } = await suite.signedInPage({ username: 'admin', password: PASSWORD });
    await page.getByRole('link', { name: 'Account' }).click();
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await sessions.getByText('Elsewhere Bot/3').waitFor();
    await sessions.getByText('this one').waitFor();
    await screenshot(page, 'account-sessions-desktop');
    await sessions
      .locator('tr', { hasText: 'Elsewhere Bot/3' })
      .getByRole('button', { name: /^End the session/ })
      .click();
    // Asked first: a slip of the mouse ends nobody's sign-in.
    await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End' }).click();
    await sessions.getByText('Elsewhere Bot/3').waitFor({ state: 'detached' });
    assert.equal((await g.api('GET', '/auth/me', { token: otherToken })).status, 401, 'ended at once');

    await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('dialog', { name: 'Sign out everywhere?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.deepEqual(errors, []);
  });

  it(
    'turns on two-factor sign-in with a QR code, shows the recovery codes, and asks for a code at the next sign-in',
    { timeout: 120_000 },
    async () => {
      const { g } = suite;
      // The harness's admin token was ended by "sign out everywhere" above: a fresh sign-in.
      const admin = (await g.api('POST', '/auth/login', { body: { username: 'admin', password: PASSWORD } })).body.data
        .access_token as string;
      const made = await g.api('POST', '/auth/users', {
        token: admin,
        body: { username: 'totp_person', password: 'totp-password-1', role: 'viewer' },
      });
      assert.equal(made.status, 201);
      const { page, errors } = await suite.signedInPage({ username: 'totp_person', password: 'totp-password-1' });
      await page.getByRole('link', { name: 'Account' }).click();
      const section = page.getByRole('region', { name: 'Two-factor sign-in' });
      await section.getByRole('button', { name: 'Turn on' }).click();
      await section.getByRole('img', { name: 'QR code of the two-factor secret' }).waitFor();
      const secret = (await section.getByTestId('totp-secret').textContent())!;
      await screenshot(page, 'account-two-factor-desktop');
      await section.getByLabel('Code').fill(TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }));
      await section.getByRole('button', { name: 'Turn on' }).click();
      await section.getByTestId('recovery-codes').waitFor();
      const codes = await section.getByTestId('recovery-codes').locator('code').allTextContents();
      assert.equal(codes.length, 10);
      await section.getByRole('button', { name: 'Done' }).click();
      await section.getByTestId('two-factor-state').filter({ hasText: '10 recovery codes left' }).waitFor();

      // Sign out ends this session on the service: its token, copied before, is refused afterwards.
      type PageStorage = { sessionStorage: { getItem(key: string): string | null } };
      const pageToken = await page.evaluate(
        () =>
          (JSON.parse((globalThis as unknown as PageStorage).sessionStorage.getItem('garrison.session') ?? '{}') as { token?: string })
            .token,
      );
      assert.ok(pageToken);
      assert.equal((await g.api('GET', '/auth/me', { token: pageToken })).status, 200);
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByText('You signed out: this session has ended.').waitFor();
      assert.equal((await g.api('GET', '/auth/me', { token: pageToken })).status, 401, 'the session ended with the sign-out');
      await page.getByLabel('Username').fill('totp_person');
      await page.getByLabel('Password').fill('totp-password-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const code = page.getByLabel(/Code from your authenticator app/);
      await code.waitFor();
      // Recovery codes hold letters: a phone must offer its full keyboard.
      assert.equal(await code.getAttribute('inputmode'), 'text');
      await screenshot(page, 'sign-in-code-desktop');
      await code.fill(codes[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      assert.deepEqual(errors, []);
    },
  );
});
