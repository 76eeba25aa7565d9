import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, PHONE, screenshot } from './browser.js';

const PASSWORD = 'admin-password-1';

// At phone width (390×844) nothing runs off the screen and a stacked table row says what each value is.
describe('the console at phone width', () => {
  const suite = browserSuite({ garrison: { adminPassword: PASSWORD } });

  it('shows every nav item whole, and labels each value of a Processes row', { timeout: 120_000 }, async () => {
    const { g } = suite;
    const made = await g.api('POST', '/servers', {
      token: g.adminToken,
      body: { name: 'Phone Ops', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2402, rcon_port: 2406, headless_clients: 1 },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { page, errors } = await suite.signedInPage({ username: 'admin', password: PASSWORD }, { viewport: PHONE });

    const nav = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    const names = await nav.allTextContents();
    assert.deepEqual(names, ['Servers', 'Nodes', 'Users', 'Notifications', 'Audit', 'Steam', 'Account'], 'an admin has every item');
    for (let i = 0; i < names.length; i++) {
      const box = await nav.nth(i).boundingBox();
      assert.ok(box, `${names[i]} is drawn`);
      assert.ok(
        box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height,
        `${names[i]} is within the viewport: ${JSON.stringify(box)}`,
      );
    }
    const scrollWidth = await page.locator('html').evaluate((html) => html.scrollWidth);
    assert.ok(scrollWidth <= PHONE.width, `nothing scrolls sideways (${scrollWidth} px wide)`);

    await page.goto(`${g.url}/#/servers/${made.body.data.id}/console`);
    const row = page.getByTestId('process-headless-1');
    await row.waitFor();
    assert.equal(await page.locator('.processes thead').isVisible(), false, 'the header row is hidden when the rows stack');
    // The label is the cell's ::before: what a reader sees beside each value.
    const labels = await row
      .locator('td')
      .evaluateAll((cells) =>
        cells.map(
          (cell) =>
            (globalThis as unknown as { getComputedStyle: (e: unknown, pseudo: string) => { content: string } }).getComputedStyle(
              cell,
              '::before',
            ).content,
        ),
      );
    assert.deepEqual(labels, ['"Process"', '"State"', '"PID"', '"Restarts"', '"CPU"', '"Memory"']);
    const cells = await row.locator('td').all();
    for (const cell of cells) {
      const box = await cell.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, 'each cell within the width');
    }
    await screenshot(page, 'server-processes-phone');
    assert.deepEqual(errors, []);
  });
});
