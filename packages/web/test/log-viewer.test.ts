import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freeGamePorts } from '@garrison/testkit';
import { browserSuite, screenshot } from './browser.js';

const PASSWORD = 'admin-password-1';
const LINES = 20_000;

// The Log files tab reads a game's log file in the page (streamed, up to the viewer's limit) and searches
// it; a file past the limit is offered for download only.
describe('the log file viewer', () => {
  const suite = browserSuite({ garrison: { adminPassword: PASSWORD }, fakeGame: true });

  it(
    "shows a file's lines with their numbers, finds the lines that match, and offers a file past the limit for download only",
    { timeout: 120_000 },
    async () => {
      const { g, fake } = suite;
      const made = await g.api('POST', '/servers', {
        token: g.adminToken,
        body: { name: 'Log Ops', exe_path: fake.exePath, ...(await freeGamePorts()) },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const logs = join(fake.dir, 'server');
      await mkdir(logs, { recursive: true });
      const lines = Array.from({ length: LINES }, (_, i) =>
        (i + 1) % 1000 === 0 ? `12:00:00 Needle found at ${i + 1}` : `12:00:00 line ${i + 1} of the game's log`,
      );
      await writeFile(join(logs, 'small.rpt'), `${lines.join('\r\n')}\r\n`);
      await writeFile(join(logs, 'huge.rpt'), Buffer.alloc(9 * 1024 * 1024, 'x\n'));
      const listed = (await g.api('GET', `/servers/${made.body.data.id}/logfiles`, { token: g.adminToken })).body.data as {
        filename: string;
      }[];
      assert.deepEqual(listed.map((f) => f.filename).sort(), ['huge.rpt', 'small.rpt']);

      const { page, errors } = await suite.signedInPage({ username: 'admin', password: PASSWORD });
      await page.goto(`${g.url}/#/servers/${made.body.data.id}/logfiles`);
      await page.getByRole('button', { name: 'View small.rpt' }).click();
      const viewer = page.getByRole('region', { name: 'Log file small.rpt' });
      const state = viewer.getByTestId('log-viewer-state');
      await state
        .filter({ hasText: `Read ` })
        .filter({ hasText: `${LINES} lines` })
        .waitFor();
      assert.match(await state.innerText(), /the first 2000 shown/);
      assert.equal(await viewer.locator('li[data-line]').count(), 2000, 'only the first lines are drawn');
      assert.equal(await viewer.locator('li[data-line="2"] .message').innerText(), "12:00:00 line 2 of the game's log", 'CRLF ends a line');

      await viewer.getByLabel('Search the file').fill('NEEDLE');
      await state.filter({ hasText: '20 match' }).waitFor();
      const found = await viewer.locator('li[data-line]').evaluateAll((items) => items.map((li) => li.getAttribute('data-line')));
      assert.deepEqual(
        found,
        Array.from({ length: 20 }, (_, i) => String((i + 1) * 1000)),
        'each match at its line, the search case-blind',
      );
      await screenshot(page, 'server-log-viewer-desktop');

      const huge = page.locator('tr', { hasText: 'huge.rpt' });
      await huge.getByText('Too large to view').waitFor();
      assert.equal(await huge.getByRole('button', { name: 'View huge.rpt' }).count(), 0);
      await huge.getByRole('button', { name: 'Download huge.rpt' }).waitFor();

      await viewer.getByRole('button', { name: 'Close' }).click();
      await viewer.waitFor({ state: 'detached' });
      assert.deepEqual(errors, []);
    },
  );
});
