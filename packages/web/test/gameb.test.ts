import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freeGamePorts, installFakeGamebTemp, waitFor } from '@garrison/testkit';
import type { Page } from 'playwright-core';
import { browserSuite, screenshot } from './browser.js';

// The fake gameb exits with this process, whoever started it (the service, which runs in this process).
process.env.GAMEB_FAKE_WATCH_PID = String(process.pid);

const STEAM_ALICE = 'STEAM_0:1:1234';
const STEAM_BOB = 'STEAM_0:0:4242';
const STEAM_CAROL = 'STEAM_0:1:777';

// The second game, end to end in the console: a Source-engine server with RCON over TCP, SteamIDs and maps.
describe('a gameb server in a real Chromium: create, start, console, players, bans, maps', () => {
  let fake: Awaited<ReturnType<typeof installFakeGamebTemp>> | undefined;
  let serverId = 0;
  const suite = browserSuite({
    garrison: { stopTimeoutMs: 3000, readyTimeoutMs: 90_000 },
    setUp: async () => {
      fake = await installFakeGamebTemp();
      // The start map (the adapter's default): the fake runs without one, but nobody could join.
      await writeFile(join(fake.dir, 'maps', 'de_dust2.bsp'), 'dust2');
    },
    beforeClose: async ({ g: h }) => {
      if (serverId) await h.api('POST', `/servers/${serverId}/kill`, { token: h.adminToken });
    },
  });
  after(async () => {
    await fake?.remove();
  });
  const installed = () => {
    if (!fake) throw new Error('the fake gameb is not installed');
    return fake;
  };
  const api = (method: string, path: string, body?: unknown) => suite.g.api(method, path, { token: suite.g.adminToken, body });
  const rcon = async (page: Page, command: string) => {
    await page.getByLabel('RCon command').fill(command);
    await page.getByRole('button', { name: 'Send' }).click();
  };
  const tab = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name, exact: true }).click();
  let page: Page;
  let errors: string[];

  it('creates the server with the New server dialog, starts it, and shows its log and an RCon answer', { timeout: 150_000 }, async () => {
    ({ page, errors } = await suite.signedInPage());
    await page.getByRole('button', { name: 'New server' }).click();
    const dialog = page.getByRole('dialog');
    const game = dialog.getByRole('combobox', { name: /^Game\b/ });
    await game.locator('option', { hasText: 'Game B' }).waitFor({ state: 'attached' });
    await game.selectOption({ label: 'Game B' });
    await waitFor(async () => (await dialog.getByLabel('Executable path').getAttribute('placeholder')) === '/srv/gameb/gamebserver', {
      what: "the exe placeholder of the game's presentation",
    });
    await dialog.getByText(/gamebserver or gamebserver\.exe/).waitFor();
    await dialog.getByLabel('Name').fill('Dust Nights');
    await dialog.getByLabel('Executable path').fill(installed().exePath);
    await dialog.getByLabel('Game port').fill(String((await freeGamePorts()).game_port));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Dust Nights is ready' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const created = (await api('GET', '/servers?game_type=gameb')).body.data as { id: number; name: string }[];
    assert.deepEqual(
      created.map((s) => s.name),
      ['Dust Nights'],
    );
    serverId = created[0].id;

    await page.getByRole('link', { name: 'Dust Nights', exact: true }).click();
    await page.getByRole('heading', { name: 'Dust Nights' }).waitFor();
    const tabs = await page.getByRole('navigation', { name: 'Server sections' }).getByRole('link').allInnerTexts();
    assert.ok(!tabs.includes('Mods'), `no Mods tab for a game without a mod manager: ${tabs.join(', ')}`);
    assert.ok(
      ['Console', 'Players', 'Bans', 'Maps'].every((t) => tabs.includes(t)),
      tabs.join(', '),
    );

    await page.getByRole('button', { name: 'Start' }).click();
    let seen: unknown;
    await waitFor(async () => ((seen = (await api('GET', `/servers/${serverId}`)).body.data) as { status: string }).status === 'running', {
      timeoutMs: 90_000,
      intervalMs: 1_000,
      what: 'the gameb server running',
    }).catch(async (err: Error) => {
      const events = (await api('GET', `/servers/${serverId}/events`)).body.data;
      const alerts = await page.getByRole('alert').allInnerTexts();
      throw new Error(`${err.message}: ${JSON.stringify(seen)} ${JSON.stringify(events)} ${alerts.join(' | ')} ${errors.join(' | ')}`);
    });
    // The game's own log lines, read from logs/L*.log, on the console.
    const log = page.getByRole('log', { name: 'Game log' });
    await log
      .getByText(/Started map "de_dust2"/)
      .first()
      .waitFor({ timeout: 60_000 });
    // RCON over TCP answers from the console's line (retried: remote admin may still be connecting).
    const answers = page.getByRole('list', { name: 'Command answers' });
    await waitFor(
      async () => {
        if ((await answers.getByText(/map\s+: de_dust2/).count()) > 0) return true;
        await rcon(page, 'status');
        await answers
          .locator('pre')
          .last()
          .filter({ hasNotText: '…' })
          .waitFor({ timeout: 10_000 })
          .catch(() => {});
        return false;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'an answer to status' },
    );
    const status = answers
      .locator('pre')
      .filter({ hasText: /map\s+: de_dust2/ })
      .first();
    assert.match(await status.innerText(), /# userid\s+name\s+uniqueid\s+connected\s+ping\s+loss\s+state\s+adr/);
    await screenshot(page, 'gameb-console');
    assert.deepEqual(errors, []);
  });

  it('lists the players who join, kicks one and bans another from the Players tab', { timeout: 120_000 }, async () => {
    assert.ok(serverId, 'the server of the first test');
    // Alice by the console's RCon line, Bob and Carol through the API.
    await rcon(page, `testkit.join Alice ${STEAM_ALICE} 10.0.0.5`);
    await page
      .getByRole('list', { name: 'Command answers' })
      .getByText(/joined userid \d+/)
      .first()
      .waitFor({ timeout: 30_000 });
    for (const [name, steam, ip] of [
      ['Bob', STEAM_BOB, '10.0.0.6'],
      ['Carol', STEAM_CAROL, '10.0.0.7'],
    ]) {
      const joined = await api('POST', `/servers/${serverId}/rcon/command`, { command: `testkit.join ${name} ${steam} ${ip}` });
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
    }
    await tab(page, 'Players');
    const players = page.getByRole('table', { name: /Players on/ });
    for (const name of ['Alice', 'Bob', 'Carol']) await players.getByRole('cell', { name, exact: true }).waitFor({ timeout: 45_000 });
    // The game's identity under its own label.
    const headers = (await players.getByRole('columnheader').allTextContents()).map((t) => t.trim());
    assert.ok(headers.includes('SteamID'), headers.join(', '));
    await players.getByRole('row').filter({ hasText: 'Alice' }).getByText(STEAM_ALICE).waitFor();
    await screenshot(page, 'gameb-players');

    await page.getByRole('button', { name: 'Kick Alice' }).click();
    const kick = page.getByRole('dialog', { name: 'Kick Alice?' });
    await kick.getByLabel('Reason').fill('afk');
    await kick.getByRole('button', { name: 'Kick' }).click();
    await page.getByRole('status').filter({ hasText: 'Alice was kicked.' }).waitFor();
    await players.getByRole('cell', { name: 'Alice', exact: true }).waitFor({ state: 'detached', timeout: 30_000 });

    await page.getByRole('button', { name: 'Ban Bob' }).click();
    const ban = page.getByRole('dialog', { name: 'Ban Bob?' });
    await ban.getByLabel('Reason').fill('wallhack');
    await ban.getByRole('button', { name: 'Ban' }).click();
    await page.getByRole('status').filter({ hasText: 'Bob was banned.' }).waitFor();
    await players.getByRole('cell', { name: 'Bob', exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
    await players.getByRole('cell', { name: 'Carol', exact: true }).waitFor();
    assert.deepEqual(errors, []);
  });

  it("shows the bans in the Bans tab, adds one by SteamID, and keeps them in the game's ban file", { timeout: 90_000 }, async () => {
    assert.ok(serverId, 'the server of the first test');
    await tab(page, 'Bans');
    const bans = page.getByRole('table', { name: /Bans of/ });
    await bans.getByText(STEAM_BOB).waitFor();
    const bobRow = bans.getByRole('row').filter({ hasText: STEAM_BOB });
    await bobRow.getByRole('cell', { name: 'STEAMID', exact: true }).waitFor();
    await bobRow.getByText('wallhack').waitFor();

    // A SteamID typed in: the dialog keeps the game's default kind (a SteamID's colons make it no address).
    await page.getByRole('button', { name: 'Add ban' }).click();
    const add = page.getByRole('dialog', { name: 'Add a ban' });
    await add.getByLabel('SteamID or IP address').fill(STEAM_CAROL);
    assert.equal(await add.getByLabel('Ban by').inputValue(), 'STEAMID');
    await add.getByLabel('Reason').fill('griefing');
    await add.getByRole('button', { name: 'Ban' }).click();
    await bans.getByText(STEAM_CAROL).waitFor();
    // An address: the IP kind, by itself.
    await page.getByRole('button', { name: 'Add ban' }).click();
    await add.getByLabel('SteamID or IP address').fill('203.0.113.7');
    assert.equal(await add.getByLabel('Ban by').inputValue(), 'IP');
    await add.getByRole('button', { name: 'Ban' }).click();
    await bans.getByText('203.0.113.7').waitFor();
    await screenshot(page, 'gameb-bans');

    const listed = (await api('GET', `/servers/${serverId}/bans`)).body.data as { guid: string; ban_type: string }[];
    assert.deepEqual(listed.map((b) => [b.guid, b.ban_type]).sort(), [
      ['203.0.113.7', 'IP'],
      [STEAM_BOB, 'STEAMID'],
      [STEAM_CAROL, 'STEAMID'],
    ]);
    // Written where the game reads its bans when it starts.
    const cfg = join(installed().dir, 'cfg');
    await waitFor(
      async () => {
        const users = await readFile(join(cfg, 'banned_user.cfg'), 'utf8').catch(() => '');
        return users.includes(`banid 0 ${STEAM_BOB}`) && users.includes(`banid 0 ${STEAM_CAROL}`);
      },
      { timeoutMs: 20_000, what: 'the SteamID bans in cfg/banned_user.cfg' },
    );
    assert.match(await readFile(join(cfg, 'banned_ip.cfg'), 'utf8'), /^addip 0 203\.0\.113\.7$/m);
    assert.deepEqual(errors, []);
  });

  it('uploads a map on the Maps tab and saves the map cycle, with no difficulty', { timeout: 90_000 }, async () => {
    assert.ok(serverId, 'the server of the first test');
    await tab(page, 'Maps');
    await page
      .getByRole('table', { name: /Map files of/ })
      .getByRole('cell', { name: 'de_dust2', exact: true })
      .waitFor();
    const inferno = { name: 'de_inferno.bsp', mimeType: 'application/octet-stream', buffer: Buffer.alloc(64 * 1024, 3) };
    await page.getByLabel(/Upload a map/).setInputFiles([inferno]);
    await page
      .getByRole('status')
      .filter({ hasText: /Uploaded de_inferno\.bsp/ })
      .waitFor({ timeout: 30_000 });
    const files = page.getByRole('table', { name: /Map files of/ });
    await files.getByRole('cell', { name: 'de_inferno', exact: true }).waitFor();

    for (const map of ['de_inferno', 'de_dust2']) {
      await page.getByLabel('Map to add').selectOption(map);
      await page.getByRole('button', { name: 'Add to rotation' }).click();
    }
    const entries = page.getByTestId('rotation-entry');
    assert.deepEqual(await entries.locator('.rotation-name').allTextContents(), ['de_inferno', 'de_dust2']);
    assert.equal(await entries.locator('select').count(), 0, 'a map cycle entry has no options');
    assert.equal(await page.getByLabel(/^Difficulty/).count(), 0);
    await page.getByRole('button', { name: 'Save rotation' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved. It applies at the next map change or start.' }).waitFor();
    // The game's word throughout: nothing on the tab speaks of missions.
    const panel = await page.locator('.tab-panel').innerText();
    assert.ok(!/mission/i.test(panel), panel);
    const saved = (await api('GET', `/servers/${serverId}/missions/rotation`)).body.data;
    assert.deepEqual(
      saved.missions.map((m: { name: string }) => m.name),
      ['de_inferno', 'de_dust2'],
    );
    await screenshot(page, 'gameb-maps');

    // Played now, by the game's changelevel: the game's log says so, and the page's figure names the map.
    await page.getByRole('button', { name: 'Play de_inferno now' }).click();
    const play = page.getByRole('dialog', { name: 'Play de_inferno now?' });
    assert.match(await play.innerText(), /taken to this map at once/);
    await play.getByRole('button', { name: 'Play now' }).click();
    await page.getByRole('status').filter({ hasText: 'Playing de_inferno' }).waitFor();
    await page
      .locator('dl.figures div')
      .filter({ has: page.locator('dt', { hasText: /^Map$/ }) })
      .filter({ hasText: 'de_inferno' })
      .waitFor({ timeout: 30_000 });
    assert.deepEqual(errors, []);
  });

  it("restarts the server on the map cycle's first map, then stops it, from its page", { timeout: 150_000 }, async () => {
    assert.ok(serverId, 'the server of the first test');
    const status = async () => (await api('GET', `/servers/${serverId}`)).body.data.status as string;
    await tab(page, 'Console');
    // The map cycle is written for the game at its start, and its first map is the one it starts on.
    const search = `/servers/${serverId}/logs?search=${encodeURIComponent('Started map "de_inferno"')}`;
    const startedOnInferno = async () => (await api('GET', search)).body.data.total as number;
    const before = await waitFor(async () => await startedOnInferno(), { what: "the changelevel's line stored" });
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    await page.getByRole('dialog', { name: 'Restart Dust Nights?' }).getByRole('button', { name: 'Restart' }).click();
    await waitFor(async () => (await startedOnInferno()) > before, {
      timeoutMs: 90_000,
      intervalMs: 1_000,
      what: 'the restart on de_inferno',
    });
    // Shown live on the console.
    await page
      .getByRole('log', { name: 'Game log' })
      .getByText(/Started map "de_inferno"/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await readFile(join(installed().dir, 'mapcycle.txt'), 'utf8'), 'de_inferno\nde_dust2\n');
    await waitFor(async () => (await status()) === 'running', { timeoutMs: 60_000, intervalMs: 1_000, what: 'running again' });

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog', { name: 'Stop Dust Nights?' }).getByRole('button', { name: 'Stop' }).click();
    await waitFor(async () => (await status()) === 'stopped', { timeoutMs: 60_000, intervalMs: 1_000, what: 'the gameb server stopped' });
    assert.deepEqual(errors, []);
  });
});
