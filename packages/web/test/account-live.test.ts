import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, collectPageErrors, DESKTOP, signIn } from './browser.js';

const PASSWORD = 'admin-password-1';

// Servers are named by their names wherever a list holds their ids (API keys, webhook endpoints), and the
// Account page's "Last used" moves while it is open (read again each minute; the browser's clock is
// moved on rather than waited for).
describe('the account page kept fresh, servers by name', () => {
  const suite = browserSuite({ garrison: { adminPassword: PASSWORD, rateLimit: 60, webhookAllowPrivate: true } });

  it("names a key's and an endpoint's servers, and shows a key's use without a reload", { timeout: 120_000 }, async () => {
    const { g } = suite;
    const server = (name: string, port: number) =>
      g.api('POST', '/servers', {
        token: g.adminToken,
        body: { name, exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: port, rcon_port: port + 4 },
      });
    const alpha = (await server('Alpha', 2402)).body.data.id as number;
    const bravo = (await server('Bravo', 2502)).body.data.id as number;
    const key = await g.api('POST', '/auth/keys', {
      token: g.adminToken,
      body: { name: 'Discord bot', scopes: ['servers:read'], server_ids: [alpha, bravo] },
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const hook = await g.api('POST', '/webhooks', {
      token: g.adminToken,
      body: { url: 'http://127.0.0.1:9/hook', kind: 'generic', events: ['server.crashed'], server_ids: [bravo] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));

    const context = await suite.newContext({ viewport: DESKTOP });
    await context.clock.install();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, g.url, 'admin', PASSWORD);
    await page.getByRole('link', { name: 'Account' }).click();
    const row = page.locator(`tr[data-key-id="${key.body.data.id}"]`);
    await row.getByRole('cell', { name: 'Alpha, Bravo', exact: true }).waitFor();
    const lastUsed = row.locator('td').nth(5);
    assert.equal((await lastUsed.innerText()).trim(), '–', 'not used yet');

    assert.equal((await g.api('GET', '/servers', { token: key.body.data.key })).status, 200);
    await page.clock.runFor(61_000);
    await lastUsed.getByText(/from 127\.0\.0\.1/).waitFor();
    assert.notEqual((await lastUsed.innerText()).trim(), '–');

    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.locator(`tr[data-webhook-id="${hook.body.data.id}"]`).getByRole('cell', { name: 'Bravo', exact: true }).waitFor();
    assert.deepEqual(errors, []);
  });
});
