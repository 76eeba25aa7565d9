import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createSocket, type Socket } from 'node:dgram';
import { join } from 'node:path';
import { freeGamePorts, installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, BrowserContext } from 'playwright-core';
import { DESKTOP, launchChromium, screenshot, signedInPage } from './browser.js';

const FIXTURES = new URL('../../server/test/fixtures/', import.meta.url).pathname;

// Adopting a server folder in real forms (the server tests' fixtures/installation) and loading a launcher
// preset, through the console in a real Chromium, within the default rate limit.
describe('importing a server and loading a launcher preset in the console', () => {
  let h: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  let commandLine: string;
  let gamePort: number;
  const contexts: BrowserContext[] = [];

  before(
    async () => {
      fake = await installFakeGameaTemp();
      await cp(join(FIXTURES, 'installation'), fake.dir, { recursive: true });
      const { game_port, rcon_port } = await freeGamePorts();
      gamePort = game_port;
      commandLine = (await readFile(join(fake.dir, 'start_server.bat'), 'utf8')).replace('-port=2400', `-port=${game_port}`);
      const be = join(fake.dir, 'BattlEye', 'beserver_x64.cfg');
      await writeFile(be, (await readFile(be, 'utf8')).replace('RConPort 2402', `RConPort ${rcon_port}`));
      h = await startGarrison({ rateLimit: 60 });
      browser = await launchChromium();
    },
    { timeout: 90_000 },
  );
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await h?.close();
    await fake?.remove();
  });

  const servers = async () =>
    (await h.api('GET', '/servers', { token: (await h.userToken('admin')).token })).body.data as { id: number; name: string }[];

  it('shows the dry-run plan, then imports, then compares, applies and downloads a preset', { timeout: 120_000 }, async () => {
    const { page, errors } = await signedInPage(
      browser,
      contexts,
      { url: h.url, username: 'admin', password: h.adminPassword },
      { viewport: DESKTOP, acceptDownloads: true },
    );

    await page.getByRole('button', { name: 'Import existing server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import an existing server' });
    await dialog.getByLabel('Executable').fill(fake.exePath);
    await dialog.getByLabel(/Start command line/).fill(commandLine);
    await dialog.getByRole('button', { name: 'Check' }).click();
    const plan = page.getByLabel('Import plan');
    await plan.getByText('Nothing is written yet').waitFor();
    assert.match(await plan.innerText(), /Sunday Ops \| EU #1 \| ACE \| TFAR \(gamea\)/);
    assert.match(await plan.innerText(), /co40_Liberation\.Altis \(Custom\), tvt20_Arena\.Stratis \(Veteran\)/);
    assert.match(await plan.innerText(), /4 from .*bans\.txt/);
    assert.match(await plan.innerText(), /Kept as extra lines/);
    assert.match(await plan.innerText(), /-nosound .*Garrison builds the command line/);
    assert.doesNotMatch(await plan.innerText(), /Sund4yRcon/, 'secrets masked in the plan');
    assert.deepEqual(await servers(), [], 'the dry run made nothing');
    await screenshot(page, 'import-plan-desktop');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Sunday Ops | EU #1 | ACE | TFAR is imported' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Rcon password' }).inputValue(), 'Sund4yRcon', 'the credentials read, shown once');
    await page.getByRole('button', { name: 'Done' }).click();
    const [made] = await servers();
    assert.ok(made);
    await page.locator(`li.server[data-server-id="${made.id}"]`).waitFor();

    await page.goto(`${h.url}/#/servers/${made.id}/mods`);
    await page.getByRole('heading', { name: 'Launcher presets' }).waitFor();
    await page.getByLabel('Load a Launcher preset').setInputFiles(join(FIXTURES, 'presets', 'sunday-ops.preset.html'));
    const diff = page.getByLabel("Preset compared with the server's mods");
    await diff.getByText('2 installed, 2 missing').waitFor();
    assert.match(await diff.innerText(), /Enhanced Movement <Rework> \(Workshop 2034363662\)/);
    assert.match(await diff.innerText(), /@task_force_radio/, 'enabled here, not in the preset');
    assert.match(await diff.innerText(), /Contact/);
    await screenshot(page, 'server-mods-preset-desktop');
    await diff.getByRole('button', { name: 'Apply' }).click();
    await diff.getByText(/Applied/).waitFor();
    // The status line and the comparison are the server's as applied, and say what the apply turned off.
    const applied = await diff.innerText();
    assert.match(applied, /2 installed, 2 missing, 0 enabled here but not in it\. Applied: .*; no longer enabled: @task_force_radio\./);
    assert.doesNotMatch(applied, /Enabled here, not in the preset/);
    // The table is read again: the mod the preset lacks is off, and names are in order, case aside.
    await page.getByRole('checkbox', { name: 'Enable @task_force_radio' }).and(page.locator(':not(:checked)')).waitFor();
    const names = await page.locator('table tbody tr td:first-child').allInnerTexts();
    const folders = names.map((n) => n.split(/\s/)[0]);
    assert.deepEqual(
      folders,
      [...folders].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      `case aside: ${folders.join(', ')}`,
    );
    assert.ok(folders.indexOf('@ace') < folders.indexOf('@CBA_A3'), '@ace before @CBA_A3');
    const mods = (await h.api('GET', `/servers/${made.id}/mods`, { token: (await h.userToken('admin')).token })).body.data.mods as {
      name: string;
      enabled: boolean;
      is_server_mod: boolean;
    }[];
    assert.deepEqual(
      mods.filter((m) => m.enabled).map((m) => [m.name, m.is_server_mod]),
      [
        ['@ace', false],
        ['@AdvancedUrbanRappelling', true],
        ['@CBA_A3', false],
      ],
    );

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download preset' }).click()]);
    const html = await readFile(await download.path(), 'utf8');
    assert.match(html, /<meta name="arma:Type" content="preset" \/>/);
    assert.match(html, /filedetails\/\?id=450814997/);
    assert.deepEqual(errors, []);
  });

  it(
    'says in the plan that another program holds the game port, and imports on the ports given in the dialog',
    { timeout: 120_000 },
    async () => {
      // The old server still running, say: another process of this host holds the game port of its start command.
      const held = (await freeGamePorts()).game_port;
      const holder: Socket = createSocket('udp4');
      await new Promise<void>((resolve) => holder.bind(held, '0.0.0.0', resolve));
      try {
        const { page, errors } = await signedInPage(
          browser,
          contexts,
          { url: h.url, username: 'admin', password: h.adminPassword },
          { viewport: DESKTOP },
        );
        await page.getByRole('button', { name: 'Import existing server' }).click();
        const dialog = page.getByRole('dialog', { name: 'Import an existing server' });
        await dialog.getByLabel('Executable').fill(fake.exePath);
        await dialog.getByLabel(/Start command line/).fill(commandLine.replace(`-port=${gamePort}`, `-port=${held}`));
        await dialog.getByRole('button', { name: 'Check' }).click();
        const plan = page.getByLabel('Import plan');
        await plan.getByText('Nothing is written yet').waitFor();
        assert.match(await plan.innerText(), new RegExp(`PORT_IN_USE: game_port ${held} is in use on this host by another process`));
        await dialog.getByText('A port is in use: go Back').waitFor();

        const other = await freeGamePorts();
        await dialog.getByRole('button', { name: 'Back' }).click();
        assert.equal(await dialog.getByLabel('Executable').inputValue(), fake.exePath, 'what was typed is kept');
        await dialog.getByLabel(/^Game port/).fill(String(other.game_port));
        await dialog.getByLabel(/^RCon port/).fill(String(other.rcon_port));
        await dialog.getByRole('button', { name: 'Check' }).click();
        await plan.getByText('Nothing is written yet').waitFor();
        const text = await plan.innerText();
        assert.match(text, new RegExp(`game port ${other.game_port}, RCon port ${other.rcon_port}`));
        assert.doesNotMatch(text, /PORT_IN_USE/);
        assert.match(text, new RegExp(`game port ${other.game_port} as given, instead of ${held} of the command line`));
        await page.getByRole('button', { name: 'Import', exact: true }).click();
        await page.getByRole('heading', { name: /is imported$/ }).waitFor();
        const made = (await servers()).at(-1)!;
        const detail = (await h.api('GET', `/servers/${made.id}`, { token: (await h.userToken('admin')).token })).body.data;
        assert.deepEqual([detail.game_port, detail.rcon_port], [other.game_port, other.rcon_port]);
        assert.deepEqual(errors, []);
      } finally {
        holder.close();
      }
    },
  );
});
