import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts } from '@garrison/testkit';
import { browserSuite, DESKTOP, screenshot } from './browser.js';

// The Schedules and Backups tabs in a real Chromium, within the default rate limit.
describe('the schedules and backups tabs', () => {
  let serverId: number;
  const suite = browserSuite({
    garrison: { rateLimit: 60 },
    fakeGame: true,
    setUpTimeoutMs: 90_000,
    setUp: async ({ g: h, fake }) => {
      const created = await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'Sunday Ops', exe_path: fake.exePath, ...(await freeGamePorts()) },
      });
      serverId = created.body.data.id;
    },
  });

  it(
    'creates a nightly restart from the template, shows its next runs, runs it now with its history, and disables it',
    { timeout: 120_000 },
    async () => {
      const { g: h } = suite;
      const { page, errors } = await suite.signedInPage(
        { username: 'admin', password: h.adminPassword },
        { viewport: DESKTOP, timezoneId: 'Europe/Berlin' },
      );
      await page.goto(`${h.url}/#/servers/${serverId}/schedules`);
      await page.getByText('No schedules.').waitFor();

      await page.getByRole('button', { name: 'New schedule' }).click();
      const form = page.getByRole('form', { name: 'New schedule' });
      assert.equal(await form.getByLabel('Time zone').inputValue(), 'Europe/Berlin', "the admin's own zone is offered");
      await form.getByLabel('Warn this many minutes before').fill('10, 5, 1');
      await form.getByText('Restart at 04:00 (warnings from 03:50)').waitFor();
      await form.getByLabel(/^When the action happens/).fill('30 3 * * *');
      await form.getByText('Restart at 03:30 (warnings from 03:20)').waitFor();
      await form.getByLabel(/^When the action happens/).fill('0 4 * * *');

      // Steps mode: each row has its number; "Add a step" has none.
      await form.getByLabel('Steps, one by one').check();
      const rows = form.locator('ol.step-rows > li');
      assert.deepEqual(await rows.locator('.step-no').allInnerTexts(), ['1.', '2.']);
      const addBox = await form.getByRole('button', { name: 'Add a step' }).boundingBox();
      const lastRow = await rows.last().boundingBox();
      assert.ok(addBox && lastRow && addBox.y >= lastRow.y + lastRow.height, '"Add a step" sits below the last step, on its own');
      await form.getByRole('button', { name: 'Add a step' }).click();
      assert.deepEqual(await rows.locator('.step-no').allInnerTexts(), ['1.', '2.', '3.']);
      await screenshot(page, 'server-schedule-steps-desktop');

      // Both a bad cron and a bad zone: both are said.
      await form.getByLabel(/^When the action happens/).fill('61 4 * * *');
      await form.getByLabel('Time zone').fill('Mars/Olympus');
      await form.getByRole('button', { name: 'Create schedule' }).click();
      const problem = form.getByRole('alert');
      await problem.waitFor();
      assert.match(await problem.innerText(), /timezone.*Mars\/Olympus.*cron/s);
      await form.getByLabel(/^When the action happens/).fill('0 4 * * *');
      await form.getByLabel('Time zone').fill('Europe/Berlin');
      await form.getByLabel('Restart with in-game warnings').check();
      await form.getByLabel('Warn this many minutes before').fill('10, 5, 1');

      await form.getByRole('button', { name: 'Create schedule' }).click();
      const item = page.locator('li.schedule').filter({ hasText: 'Nightly restart' });
      await item.getByText(/Next run: /).waitFor();
      const listed = await item.innerText();
      assert.match(listed, /0 4 \* \* \* · Europe\/Berlin/);
      assert.match(listed, /Next: Restart at 0?4:00( AM)? \(warnings from 0?3:50( AM)?\)/, "in the admin's own zone and format");
      assert.match(listed, /10 min before: Say to everyone: “Server restart in 10 min”/);
      assert.match(listed, /5 min before: Say to everyone: “Server restart in 5 min”/);
      assert.match(listed, /At the set time: Restart the server/);
      assert.doesNotMatch(listed, /\{"message"/, 'no raw JSON');
      const [schedule] = (await h.api('GET', `/servers/${serverId}/schedules`, { token: (await h.userToken('admin')).token })).body.data;
      assert.deepEqual(
        schedule.steps.map((s: { at_s: number }) => s.at_s),
        [-600, -300, -60, 0],
      );

      // Edit: the form comes back filled in, as the template it was made from.
      await item.getByRole('button', { name: 'Edit Nightly restart' }).click();
      const edit = page.getByRole('form', { name: 'Edit Nightly restart' });
      assert.equal(await edit.getByLabel('Warn this many minutes before').inputValue(), '10, 5, 1');
      await edit.getByLabel(/^When the action happens/).fill('30 5 * * *');
      await edit.getByLabel('Warn this many minutes before').fill('15, 1');
      await edit.getByText('Restart at 05:30 (warnings from 05:15)').waitFor();
      await edit.getByRole('button', { name: 'Save schedule' }).click();
      await item.getByText(/Next: Restart at 0?5:30( AM)? \(warnings from 0?5:15( AM)?\)/).waitFor();
      const [edited] = (await h.api('GET', `/servers/${serverId}/schedules`, { token: (await h.userToken('admin')).token })).body.data;
      assert.deepEqual(
        [edited.id, edited.cron, edited.steps.map((s: { at_s: number }) => s.at_s)],
        [schedule.id, '30 5 * * *', [-900, -60, 0]],
      );

      await item.getByRole('button', { name: 'Run now' }).click();
      const history = page.getByLabel('Runs of Nightly restart');
      // The server is stopped: the first warning cannot be said, and the run goes on to its next step.
      await history.getByText(/15 min before: Say — failed/).waitFor();
      await screenshot(page, 'server-schedules-desktop');

      await item.getByRole('button', { name: 'Disable' }).click();
      await item.getByRole('button', { name: 'Enable' }).waitFor();
      await item.getByText('Next run: —').waitFor();
      await item.getByText('disabled', { exact: true }).waitFor();
      assert.deepEqual(
        errors,
        ['Failed to load resource: the server responded with a status of 400 (Bad Request)'],
        'the refused bad cron and zone only',
      );
    },
  );

  it('backs up with progress, locks, restores after naming what it overwrites, and downloads', { timeout: 120_000 }, async () => {
    const { g: h } = suite;
    const { page, errors } = await suite.signedInPage(
      { username: 'admin', password: h.adminPassword },
      { viewport: DESKTOP, acceptDownloads: true },
    );
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
    assert.match(
      await dialog.innerText(),
      /overwrites Sunday Ops's profile \(player persistence\), its generated config files, its BattlEye folder with the bans/,
    );
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
