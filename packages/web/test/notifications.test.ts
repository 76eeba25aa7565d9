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
// own), tests it, reads its delivery log and redelivers, turns it off; the metrics' state is shown.
describe('the notifications page', () => {
  let g: TestGarrison;
  let browser: Browser;
  let receiver: Server;
  const received: { body: string }[] = [];
  const contexts: BrowserContext[] = [];
  let answer = 200;

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body });
        res.writeHead(answer).end(answer === 200 ? '' : 'receiver says no');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    g = await startGarrison({ adminPassword: PASSWORD, rateLimit: 60, webhookAllowPrivate: true, metricsToken: 'console-metrics-token-0123' });
    browser = await launchChromium();
  }, { timeout: 60_000 });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await g?.close();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('adds an endpoint with its events, shows its secret once, tests it, shows the delivery log, redelivers, and turns it off', { timeout: 120_000 }, async () => {
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
    assert.deepEqual(made!.events.sort(), ['player.banned', 'server.crash_loop', 'server.crashed']);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Test endpoint ${made!.id}` }).click();
    const log = page.getByRole('region', { name: `Deliveries of endpoint ${made!.id}` });
    await waitFor(() => received.length >= 1, { what: 'the test delivery received' });
    await log.getByRole('button', { name: 'Refresh' }).click();
    await log.getByTestId('delivery-status').filter({ hasText: 'delivered' }).waitFor();
    assert.match(received[0]!.body, /"type":"webhook.test"/);
    await screenshot(page, 'notifications-desktop');

    answer = 500;
    const delivery = await log.locator('tr[data-delivery-id]').first().getAttribute('data-delivery-id');
    await log.getByRole('button', { name: `Redeliver delivery ${delivery}` }).click();
    await waitFor(() => received.length >= 2, { what: 'the redelivery received' });
    await waitFor(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      return (await log.getByTestId('delivery-status').first().textContent()) === 'pending';
    }, { what: 'the failed redelivery shown pending, to be tried again' });
    await log.getByText('500 receiver says no').waitFor();

    await page.getByRole('button', { name: `Edit endpoint ${made!.id}` }).click();
    const edit = page.getByRole('dialog', { name: `Endpoint ${made!.id}` });
    await edit.getByLabel('On', { exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await row.getByTestId('webhook-state').filter({ hasText: 'off' }).waitFor();
    assert.equal(await page.getByRole('button', { name: `Test endpoint ${made!.id}` }).isDisabled(), true);
    assert.deepEqual(errors, []);
  });
});
