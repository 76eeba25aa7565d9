import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts, installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, BrowserContext } from 'playwright-core';
import { DESKTOP, launchChromium, screenshot, signedInPage } from './browser.js';

// The Schedules and Backups tabs in a real Chromium, within the default rate limit.
describe('the schedules and backups tabs', () => {
  let h: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  let serverId: number;
  const contexts: BrowserContext[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startGarrison({ rateLimit: 60 });
    browser = await launchChromium();
    const created = await h.api('POST', '/servers', { token: h.adminToken, body: { name: 'Sunday Ops', exe_path: fake.exePath, ...(await freeGamePorts()) } });
    serverId = created.body.data.id;
  }, { timeout: 90_000 });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await h?.close();
    await fake?.remove();
  });

  it('creates a nightly restart from the template, shows its next runs, runs it now with its history, and disables it', { timeout: 120_000 }, async () => {
    const { page, errors } = await signedInPage(browser, contexts, { url: h.url, username: 'admin', password: h.adminPassword }, { viewport: DESKTOP, timezoneId: 'Europe/Berlin' });
    await page.goto(`${h.url}/#/servers/${serverId}/schedules`);
    await page.getByText('No schedules.').waitFor();

    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    assert.equal(await form.getByLabel('Time zone').inputValue(), 'Europe/Berlin', "the admin's own zone is offered");
    await form.getByLabel('Warn this many minutes before').fill('10, 5, 1');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    const item = page.locator('li.schedule').filter({ hasText: 'Nightly restart' });
    await item.getByText(/Next run: /).waitFor();
    const listed = await item.innerText();
    assert.match(listed, /0 4 \* \* \* · Europe\/Berlin/);
    assert.match(listed, /\+0 min Say .*\n?.*\+5 min Say/s);
    assert.match(listed, /\+10 min Restart/);
    const [schedule] = (await h.api('GET', `/servers/${serverId}/schedules`, { token: (await h.userToken('admin')).token })).body.data;
    assert.deepEqual(schedule.steps.map((s: { at_s: number }) => s.at_s), [0, 300, 540, 600]);

    await item.getByRole('button', { name: 'Run now' }).click();
    const history = page.getByLabel('Runs of Nightly restart');
    // The server is stopped: the first warning cannot be said, and the run goes on to its next step.
    await history.getByText(/\+0 min Say: failed/).waitFor();
    await screenshot(page, 'server-schedules-desktop');

    await item.getByRole('button', { name: 'Disable' }).click();
    await item.getByRole('button', { name: 'Enable' }).waitFor();
    await item.getByText('Next run: —').waitFor();
    await item.getByText('disabled', { exact: true }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('backs up with progress, locks, restores after naming what it overwrites, and downloads', { timeout: 120_000 }, async () => {
    const { page, errors } = await signedInPage(browser, contexts, { url: h.url, username: 'admin', password: h.adminPassword }, { viewport: DESKTOP, acceptDownloads: true });
    await page.goto(`${h.url}/#/servers/${serverId}/backups`);
    await page.getByText('No backups yet.').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    const row = page.locator('tr[data-backup-id]').last();
    await row.getByRole('cell', { name: 'done', exact: true }).waitFor();
    await row.getByRole('button', { name: 'Lock' }).click();
    await row.getByText('locked').waitFor();
    assert.equal(await row.getByRole('button', { name: /^Delete/ }).count(), 0, 'a locked backup cannot be deleted');
    await page.getByRole('button', { name: 'Back up with missions' }).click();
    await page.locator('tr[data-backup-id]').nth(1).waitFor();
    await page.locator('tr[data-backup-id]').first().getByRole('cell', { name: 'done', exact: true }).waitFor();
    await screenshot(page, 'server-backups-desktop');

    await row.getByRole('button', { name: /^Restore/ }).click();
    const dialog = page.getByRole('dialog');
    assert.match(await dialog.innerText(), /overwrites Sunday Ops's profile \(player persistence\), its generated config files, its BattlEye folder with the bans/);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    const restored = page.getByRole('status').filter({ hasText: /restored/ });
    await restored.waitFor();
    // The time it went back to, written as the list writes it (not the API's ISO 8601).
    const made = (await row.locator('td').first().innerText()).replace(/ · locked$/, '');
    assert.ok((await restored.innerText()).includes(made), `${await restored.innerText()} names ${made}`);
    assert.doesNotMatch(await restored.innerText(), /\d{4}-\d{2}-\d{2}T\d{2}:/);

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download' }).click()]);
    assert.match(download.suggestedFilename(), /^Sunday_Ops-backup-\d+\.tar\.gz$/);
    assert.deepEqual(errors, []);
  });
});
