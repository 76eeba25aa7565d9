import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, screenshot, signedInPage } from './browser.js';

const PASSWORD = 'admin-password-1';

// The Notifications page: an admin adds a Discord-kind endpoint (pointed at a receiver of the test's
// own), tests it (a confirmation followed live), reads its delivery log as it changes and redelivers,
// turns it off; the metrics' state is shown.
describe('the notifications page', () => {
  let g: TestGarrison;
  let browser: Browser;
  let receiver: Server;
  const received: { body: string }[] = [];
  const contexts: BrowserContext[] = [];
  let answer = 200;

  before(
    async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ body });
          res.writeHead(answer).end(answer === 200 ? '' : 'receiver says no');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
      g = await startGarrison({
        adminPassword: PASSWORD,
        rateLimit: 60,
        webhookAllowPrivate: true,
        metricsToken: 'console-metrics-token-0123',
      });
      browser = await launchChromium();
    },
    { timeout: 60_000 },
  );
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await g?.close();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it(
    'adds an endpoint with its events, shows its secret once, tests it, shows the delivery log, redelivers, and turns it off',
    { timeout: 120_000 },
    async () => {
      const { page, errors } = await signedInPage(browser, contexts, { url: g.url, username: 'admin', password: PASSWORD });
      await page.getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      await page.getByTestId('metrics-state').filter({ hasText: 'metrics are on' }).waitFor();

      await page.getByRole('button', { name: 'New endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'New endpoint' });
      await dialog.getByLabel('URL').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/123/token-part`);
      await dialog.getByLabel('Kind').selectOption('generic');
      await dialog.getByLabel('player.banned').check();
      await dialog.getByRole('button', { name: 'Create' }).click();
      const secret = await page.getByTestId('webhook-secret').locator('code').textContent();
      assert.match(secret ?? '', /^whsec_/);
      const row = page.locator('tr[data-webhook-id]');
      await row.getByText(/^http:\/\/127\.0\.0\.1:\d+\/…$/).waitFor();
      assert.ok(!(await page.content()).includes('token-part'), 'the URL is shown masked');
      const [made] = (await g.api('GET', '/webhooks', { token: g.adminToken })).body.data as { id: number; events: string[] }[];
      assert.deepEqual(made.events.sort(), ['player.banned', 'server.crash_loop', 'server.crashed']);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });

      // Test: a confirmation says what was sent and follows the delivery to its end, live (no Refresh).
      await page.getByRole('button', { name: `Test endpoint ${made.id}` }).click();
      const confirmation = page.getByTestId('webhook-test-result');
      await confirmation.getByText('webhook.test').waitFor();
      await page.locator('[data-testid="webhook-test-result"][data-status="delivered"]').waitFor();
      await confirmation.getByText('Delivered: the endpoint answered 200').waitFor();
      assert.ok(!(await confirmation.textContent())!.includes('token-part'), 'the URL masked there too');
      const log = page.getByRole('region', { name: `Deliveries of endpoint ${made.id}` });
      await log.getByTestId('delivery-status').filter({ hasText: 'delivered' }).waitFor();
      assert.equal(received.length, 1);
      assert.match(received[0].body, /"type":"webhook.test"/);
      await screenshot(page, 'notifications-desktop');

      // What happens elsewhere comes into the open log as it is delivered.
      const server = await g.api('POST', '/servers', {
        token: g.adminToken,
        body: { name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2402, rcon_port: 2406 },
      });
      const ban = await g.api('POST', `/servers/${server.body.data.id}/bans`, {
        token: g.adminToken,
        body: { player_uid: 'a'.repeat(32), ban_type: 'GUID', reason: 'cheating', duration_minutes: 0 },
      });
      assert.equal(ban.status, 201, JSON.stringify(ban.body));
      await log
        .locator('tr[data-delivery-id]', { hasText: 'player.banned' })
        .getByTestId('delivery-status')
        .filter({ hasText: 'delivered' })
        .waitFor();

      answer = 500;
      const delivery = await log.locator('tr[data-delivery-id]', { hasText: 'webhook.test' }).getAttribute('data-delivery-id');
      await log.getByRole('button', { name: `Redeliver delivery ${delivery}` }).click();
      await waitFor(() => received.length >= 3, { what: 'the redelivery received' });
      const redelivered = log.locator(`tr[data-delivery-id="${delivery}"]`);
      await redelivered.getByText('500 receiver says no').waitFor();
      assert.equal(
        await redelivered.getByTestId('delivery-status').textContent(),
        'pending',
        'the failed redelivery shown pending, to be tried again',
      );

      await page.getByRole('button', { name: `Edit endpoint ${made.id}` }).click();
      const edit = page.getByRole('dialog', { name: `Endpoint ${made.id}` });
      await edit.getByLabel('On', { exact: true }).uncheck();
      await edit.getByRole('button', { name: 'Save' }).click();
      await row.getByTestId('webhook-state').filter({ hasText: 'off' }).waitFor();
      assert.equal(await page.getByRole('button', { name: `Test endpoint ${made.id}` }).isDisabled(), true);
      assert.deepEqual(errors, []);
    },
  );
});
