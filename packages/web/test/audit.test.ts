import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, screenshot, signedInPage } from './browser.js';

const PASSWORD = 'admin-password-1';

// The Audit page: an admin reads the whole trail (a deleted server's entries too), filters it by what
// it is about and by who acted, pages it, and exports what the filters keep as JSON lines.
describe('the audit page', () => {
  let g: TestGarrison;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(
    async () => {
      g = await startGarrison({ adminPassword: PASSWORD, rateLimit: 60 });
      browser = await launchChromium();
    },
    { timeout: 60_000 },
  );
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await g?.close();
  });

  it('lists the trail, filters it, and exports it; viewers have no such page', { timeout: 120_000 }, async () => {
    const made = await g.api('POST', '/servers', {
      token: g.adminToken,
      body: { name: 'Gone soon', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2402, rcon_port: 2406 },
    });
    assert.equal((await g.api('DELETE', `/servers/${made.body.data.id}`, { token: g.adminToken })).status, 204);
    const operator = await g.api('POST', '/auth/users', {
      token: g.adminToken,
      body: { username: 'operator', password: 'a-password-1', role: 'viewer' },
    });
    assert.equal(operator.status, 201);
    assert.equal(
      (await g.api('PUT', `/auth/users/${operator.body.data.id}`, { token: g.adminToken, body: { role: 'admin' } })).status,
      200,
    );
    assert.equal(
      (await g.api('POST', '/auth/users', { token: g.adminToken, body: { username: 'reader', password: 'a-password-1', role: 'viewer' } }))
        .status,
      201,
    );

    const { page, errors } = await signedInPage(browser, contexts, { url: g.url, username: 'admin', password: PASSWORD });
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit' }).waitFor();
    const rows = page.locator('tr[data-entry-id]');
    await rows.filter({ hasText: 'server deleted' }).filter({ hasText: 'Gone soon' }).waitFor();
    await rows.filter({ hasText: 'user role changed' }).filter({ hasText: 'operator' }).waitFor();
    await screenshot(page, 'audit-desktop');

    await page.getByLabel('About').selectOption('user');
    await page.locator('tr[data-entry-id]', { hasText: 'server deleted' }).waitFor({ state: 'detached' });
    const kinds = await rows.locator('td:nth-child(5)').allTextContents();
    assert.ok(kinds.length > 0 && kinds.every((k) => k.startsWith('user')), kinds.join(' | '));

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON lines' }).click();
    const file = await (await download).path();
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { target_kind: string; hash: string; prev_hash: string });
    assert.ok(lines.length >= 2);
    assert.ok(
      lines.every((e) => e.target_kind === 'user'),
      'the export keeps the filters',
    );

    await page.getByLabel('About').selectOption('');
    await page.getByLabel('Actor').fill('nobody-acted');
    await page.getByText('No entry matches.').waitFor();
    assert.deepEqual(errors, []);

    // A viewer sees no Audit link, and the API refuses them.
    const viewer = await signedInPage(browser, contexts, { url: g.url, username: 'reader', password: 'a-password-1' });
    assert.equal(await viewer.page.getByRole('link', { name: 'Nodes' }).count(), 1);
    assert.equal(await viewer.page.getByRole('link', { name: 'Audit' }).count(), 0);
    assert.equal((await g.api('GET', '/audit', { token: g.viewerToken })).status, 403);
    assert.deepEqual(viewer.errors, []);
  });
});
