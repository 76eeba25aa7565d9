import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { freeGamePorts, installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser } from 'playwright-core';
import { collectPageErrors, DESKTOP, launchChromium, signIn } from './browser.js';

const GAMEC = fileURLToPath(new URL('./fixtures/gamec-adapter.ts', import.meta.url));
const ALL_TABS = [
  'Console',
  'Players',
  'Bans',
  'Missions',
  'Mods',
  'Workshop',
  'Schedules',
  'Backups',
  'Config',
  'Metrics',
  'Install',
  'Log files',
  'Audit',
];

// A second game loaded as a plugin, with fewer capabilities than gamea: the console follows each game.
describe('the console for every game, not just gamea', () => {
  let h: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startGarrison({ plugins: [GAMEC] });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await h?.close();
    await fake?.remove();
  });

  it(
    "asks for what the chosen game needs, and shows a server only the tabs its game's capabilities allow",
    { timeout: 90_000 },
    async () => {
      const gamea = await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'Alpha', exe_path: fake.exePath, ...(await freeGamePorts()) },
      });
      assert.equal(gamea.status, 201);
      const context = await browser.newContext({ viewport: DESKTOP });
      try {
        const page = await context.newPage();
        const errors = collectPageErrors(page);
        await signIn(page, h.url, 'admin', h.adminPassword);
        await page.getByRole('button', { name: 'New server' }).click();
        const dialog = page.getByRole('dialog');
        // (Its accessible name holds the chosen game too: "Game Gamea".)
        const game = dialog.getByRole('combobox', { name: /^Game\b/ });
        await game.locator('option', { hasText: 'Game C' }).waitFor({ state: 'attached' });
        assert.deepEqual(await game.locator('option').allInnerTexts(), ['Gamea', 'Game B', 'Game C']);
        // gamea first: its executables as the hint, and an RCon port.
        await dialog.getByText(/gameaserver_x64\.exe/).waitFor();
        assert.equal(await dialog.getByLabel('RCon port (optional)').count(), 1);
        // Game B takes RCON on its game port: no RCon port to give.
        await game.selectOption({ label: 'Game B' });
        await dialog.getByText(/gamebserver or gamebserver\.exe/).waitFor();
        assert.equal(await dialog.getByLabel('RCon port (optional)').count(), 0, 'RCON on the game port');

        await game.selectOption({ label: 'Game C' });
        await dialog.getByText("The full path of the game's server program: gamec_server.").waitFor();
        assert.equal(await dialog.getByLabel('Executable path').getAttribute('placeholder'), '/path/to/gamec_server');
        assert.equal(await dialog.getByLabel('RCon port (optional)').count(), 0, 'no remote admin, no RCon port');
        assert.ok(!(await dialog.innerText()).includes('gamea'), 'nothing of gamea left in the form');
        await dialog.getByLabel('Name').fill('Builders');
        await dialog.getByLabel('Executable path').fill('/srv/gamec/gamec_server');
        await dialog.getByLabel('Game port').fill(String((await freeGamePorts()).game_port));
        await dialog.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('heading', { name: 'Builders is ready' }).waitFor();
        // The path points at nothing on this machine: said at once, not at the first start.
        await page.getByRole('status').filter({ hasText: 'There is no file at /srv/gamec/gamec_server yet' }).waitFor();
        await page.getByRole('button', { name: 'Done' }).click();
        const created = (await h.api('GET', '/servers?game_type=gamec', { token: h.adminToken })).body.data;
        assert.deepEqual(
          created.map((s: { name: string }) => s.name),
          ['Builders'],
        );

        const tabsOf = async () => page.getByRole('navigation', { name: 'Server sections' }).getByRole('link').allInnerTexts();
        await page.getByRole('link', { name: 'Builders', exact: true }).click();
        await page.getByRole('heading', { name: 'Builders' }).waitFor();
        assert.deepEqual(await tabsOf(), ['Console', 'Schedules', 'Backups', 'Config', 'Metrics', 'Audit']);
        assert.equal(await page.getByText('RCon port').count(), 0, 'no RCon port among the figures');
        assert.equal(await page.getByLabel('RCon command').count(), 0, 'no RCon line on the console');
        await page.getByText('Game C').first().waitFor();
        // The config editor shows the game's own section.
        await page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name: 'Config' }).click();
        assert.equal(await page.getByLabel('World name').inputValue(), 'Meadow');
        // An address of a tab the game does not have falls back to the first tab.
        await page.goto(`${h.url}/#/servers/${created[0].id}/missions`);
        await page
          .getByRole('navigation', { name: 'Server sections' })
          .getByRole('link', { name: 'Console' })
          .and(page.locator('[aria-current="page"]'))
          .waitFor();

        // gamea's server keeps every tab and its RCon line.
        await page.goto(`${h.url}/#/servers/${gamea.body.data.id}/console`);
        await page.getByRole('heading', { name: 'Alpha' }).waitFor();
        assert.deepEqual(await tabsOf(), ALL_TABS);
        await page.getByLabel('RCon command').waitFor();

        // An import's words follow the executable typed: the files and the command line of its game.
        await page.goto(`${h.url}/#/`);
        await page.getByRole('button', { name: 'Import existing server' }).click();
        const importing = page.getByRole('dialog', { name: 'Import an existing server' });
        await importing
          .getByText(/basic\.cfg/)
          .first()
          .waitFor();
        assert.equal(await importing.getByLabel(/^RCon port/).count(), 1);
        await importing.getByLabel('Executable').fill('/srv/gameb/gamebserver');
        await importing.getByText(/mapcycle\.txt/).waitFor();
        assert.equal(await importing.getByLabel(/^RCon port/).count(), 0, 'gameb takes RCON on its game port');
        assert.match((await importing.getByLabel(/Start command line/).getAttribute('placeholder')) ?? '', /\+map de_dust2/);
        assert.ok(!(await importing.innerText()).includes('basic.cfg'), "nothing of the first game's files left");
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    },
  );
});
