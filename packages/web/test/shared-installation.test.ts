import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts, installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser } from 'playwright-core';
import { collectPageErrors, DESKTOP, launchChromium, signIn } from './browser.js';

describe('a new server on an installation another server uses, in a real Chromium', () => {
  let h: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startGarrison();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await h?.close();
    await fake?.remove();
  });

  it('says which server shares it, and that missions and mods stay shared', { timeout: 90_000 }, async () => {
    const first = await h.api('POST', '/servers', {
      token: h.adminToken,
      body: { name: 'Saturday Ops', exe_path: fake.exePath, ...(await freeGamePorts()) },
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await signIn(page, h.url, 'admin', h.adminPassword);
      await page.getByRole('button', { name: 'New server' }).click();
      const ports = await freeGamePorts();
      await page.getByLabel('Name').fill('Sunday Ops');
      await page.getByLabel('Executable path').fill(fake.exePath);
      await page.getByLabel('Game port').fill(String(ports.game_port));
      await page.getByLabel('RCon port (optional)').fill(String(ports.rcon_port));
      await page.getByRole('button', { name: 'Create' }).click();
      // A refusal (a port taken meanwhile by a test beside this one) fails with what the dialog said.
      await page
        .getByRole('heading', { name: 'Sunday Ops is ready' })
        .waitFor({ timeout: 60_000 })
        .catch(async (err: Error) => {
          throw new Error(`${err.message}: ${(await page.getByRole('alert').allInnerTexts()).join(' | ')} ${errors.join(' | ')}`);
        });
      const notice = page.locator('[data-warning="shares_installation"]');
      await notice.waitFor({ timeout: 10_000 });
      const text = await notice.innerText();
      assert.match(text, new RegExp(`Saturday Ops \\(#${first.body.data.id}\\)`));
      assert.match(text, /its own profile/);
      assert.match(text, /missions and mod folders stay shared/);
      // Still the credentials, shown this once.
      await page.getByRole('button', { name: 'Copy the password admin' }).waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      // Said once: the card shows what needs attention, and a shared installation does not.
      const card = page.locator('li.server').filter({ has: page.getByRole('link', { name: 'Sunday Ops', exact: true }) });
      await card.getByTestId('status').filter({ hasText: 'stopped' }).waitFor();
      assert.equal(await card.getByRole('list', { name: 'Needs attention' }).count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
