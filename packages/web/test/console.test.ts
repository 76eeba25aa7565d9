import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freeGamePorts, installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, Page } from 'playwright-core';
import { collectPageErrors, DESKTOP, launchChromium, PHONE, screenshot, signIn } from './browser.js';

describe('the web console in a real Chromium', () => {
  let h: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startGarrison({ stopTimeoutMs: 3000, readyTimeoutMs: 30_000 });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    if (h) {
      const listed = await h.api('GET', '/servers', { token: h.adminToken });
      for (const s of listed.body?.data ?? []) await h.api('POST', `/servers/${s.id}/kill`, { token: h.adminToken });
      await h.close();
    }
    await fake?.remove();
  });

  const card = (page: Page, name: string) => page.locator('li.server').filter({ has: page.getByRole('link', { name, exact: true }) });

  it('signs in, creates a server, starts it and sees it turn running live, then kills it after asking', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await signIn(page, h.url, 'admin', h.adminPassword);
      await page.getByRole('button', { name: 'New server' }).click();
      const ports = await freeGamePorts();
      await page.getByLabel('Name').fill('Friday Ops');
      await page.getByLabel('Executable path').fill(fake.exePath);
      await page.getByLabel('Game port').fill(String(ports.game_port));
      await page.getByLabel('RCon port (optional)').fill(String(ports.rcon_port));
      await page.getByRole('button', { name: 'Create' }).click();

      // The generated credentials, shown this once, each with a copy button.
      await page.getByRole('heading', { name: 'Friday Ops is ready' }).waitFor();
      const adminPassword = await page.getByLabel('Password admin', { exact: true }).inputValue();
      assert.match(adminPassword, /^[A-Za-z0-9]{12,32}$/);
      assert.match(await page.getByLabel('Rcon password', { exact: true }).inputValue(), /^[A-Za-z0-9]{12,32}$/);
      await page.getByRole('button', { name: 'Copy the password admin' }).waitFor();
      // Where they can be seen again, rather than "never again".
      await page.getByText(/Admins can see them again in the server's generated files, under Config → Preview\./).waitFor();
      await page.getByRole('button', { name: 'Done' }).click();

      const server = card(page, 'Friday Ops');
      await server.getByTestId('status').filter({ hasText: 'stopped' }).waitFor();
      await server.getByRole('button', { name: 'Start' }).click();
      // Live over the WebSocket: the page is never reloaded and never polls.
      await server.getByTestId('status').filter({ hasText: 'running' }).waitFor({ timeout: 60_000 });
      // Players: "waiting for the game" until its first answer to the player poll, then a count (0) of
      // the config's limit, live.
      const figure = (label: string) =>
        server
          .locator('div')
          .filter({ has: page.locator('dt', { hasText: label }) })
          .locator('dd');
      const players = figure('Players');
      assert.match(await players.innerText(), /^(waiting for the game|0 \/ 40)$/);
      await players.filter({ hasText: /^0 \/ 40$/ }).waitFor({ timeout: 30_000 });
      // At a glance: where to connect, for how long it has run, and the totals above the cards.
      assert.equal(await server.getByTestId('connect').innerText(), `Connect 127.0.0.1:${ports.game_port}`);
      assert.match(await figure('Uptime').innerText(), /^\d+ min$/);
      assert.match(await page.getByTestId('total-running').innerText(), /^1 of \d+$/);
      assert.equal(await server.getByRole('list', { name: 'Needs attention' }).count(), 0, 'nothing needs attention');
      // The mission the game says it plays, live on the card.
      await mkdir(join(fake.dir, 'mpmissions'), { recursive: true });
      await writeFile(join(fake.dir, 'mpmissions', 'co10_Escape.Altis.pbo'), 'mission');
      const created = (await h.api('GET', '/servers', { token: h.adminToken })).body.data.find(
        (x: { name: string }) => x.name === 'Friday Ops',
      );
      assert.equal(
        (
          await h.api('POST', `/servers/${created.id}/rcon/command`, {
            token: h.adminToken,
            body: { command: '#mission co10_Escape.Altis' },
          })
        ).status,
        200,
      );
      await server.getByTestId('mission').filter({ hasText: 'co10_Escape.Altis' }).waitFor({ timeout: 20_000 });
      await screenshot(page, 'dashboard-desktop');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'dashboard-phone');
      await page.setViewportSize(DESKTOP);

      await server.getByRole('button', { name: 'Kill' }).click();
      const dialog = page.getByRole('dialog', { name: 'Kill Friday Ops?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.equal(await server.getByTestId('status').textContent(), 'running', 'a cancelled kill changes nothing');
      await server.getByRole('button', { name: 'Kill' }).click();
      await dialog.getByRole('button', { name: 'Kill' }).click();
      await server
        .getByTestId('status')
        .filter({ hasText: /stopped|crashed/ })
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('offers a viewer no control, and sends a revoked session back to sign-in with a message', { timeout: 60_000 }, async () => {
    const viewer = await h.userToken('viewer');
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await signIn(page, h.url, viewer.username, viewer.password);
      await card(page, 'Friday Ops').waitFor();
      const controls = await page.locator('main button').allTextContents();
      assert.deepEqual(controls, [], 'a viewer is offered no button');

      assert.equal((await h.api('DELETE', `/auth/users/${viewer.id}`, { token: h.adminToken })).status, 204);
      await page.reload();
      await page.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('answers a failed sign-in with a readable message', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(h.url);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A sentence, the service's code only in the tooltip.
      const alert = page.getByRole('alert').filter({ hasText: 'Wrong username or password.' });
      await alert.waitFor();
      assert.ok(!(await alert.innerText()).includes('UNAUTHORIZED'));
      assert.equal(await alert.locator('[title]').getAttribute('title'), 'UNAUTHORIZED (HTTP 401)');
    } finally {
      await context.close();
    }
  });
});
