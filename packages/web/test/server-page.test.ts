import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freeGamePorts, waitFor } from '@garrison/testkit';
import type { Page } from 'playwright-core';
import { browserSuite, collectPageErrors, DESKTOP, PHONE, screenshot, signIn } from './browser.js';

// The service's default rate limit (60 requests a minute per token) stays on: the console must live within it.
describe('the server page in a real Chromium, within the default rate limit', () => {
  let serverId: number;
  const suite = browserSuite({
    garrison: { stopTimeoutMs: 3000, readyTimeoutMs: 90_000, rateLimit: 60 }, // a game's readiness is slow on a busy machine
    fakeGame: true,
    setUpTimeoutMs: 150_000, // the game's start and its RCon, then Chromium: slow on a busy machine
    setUp: async ({ g: h, fake }) => {
      await mkdir(join(fake.dir, '@cba'));
      const ports = await freeGamePorts();
      const created = await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'Sunday Ops', exe_path: fake.exePath, ...ports },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      serverId = created.body.data.id;
      assert.equal((await h.api('POST', `/servers/${serverId}/start`, { token: h.adminToken })).status, 200);
      // Running, with remote admin answering: the page's RCon line needs both. Asked with a token of its
      // own, as each token has its minute's budget.
      const probe = (await h.userToken('admin')).token;
      await waitFor(
        async () =>
          (await h.api('POST', `/servers/${serverId}/rcon/command`, { token: probe, body: { command: 'players' } })).status === 200,
        {
          timeoutMs: 45_000,
          intervalMs: 1_000,
          what: 'the fake game to answer RCon',
        },
      );
    },
    beforeClose: async ({ g: h }) => {
      // A token of its own: the tests may have spent the admin's minute.
      await h.api('POST', `/servers/${serverId}/kill`, { token: (await h.userToken('admin')).token });
    },
  });

  // The tests' own checks through the API, each test with a token of its own, so that the budget one
  // spends cannot make the next fail.
  let token: string;
  beforeEach(async () => {
    token = (await suite.g.userToken('admin')).token;
  });

  /** A new browser session, signed in, on one of the server page's tabs. */
  const open = async (
    tab: string,
    who: { username: string; password: string } = { username: 'admin', password: suite.g.adminPassword },
    viewport = DESKTOP,
  ) => {
    const context = await suite.newContext({ viewport });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const sockets = new Set<string>(); // the WebSockets open now
    page.on('websocket', (ws) => {
      sockets.add(ws.url());
      ws.on('close', () => sockets.delete(ws.url()));
    });
    await signIn(page, suite.g.url, who.username, who.password);
    await page.goto(`${suite.g.url}/#/servers/${serverId}/${tab}`);
    await page.getByRole('heading', { name: 'Sunday Ops' }).waitFor();
    return { page, errors, sockets };
  };
  const rcon = async (page: Page, command: string) => {
    await page.getByLabel('RCon command').fill(command);
    await page.getByRole('button', { name: 'Send' }).click();
  };

  it('shows the game log live, filters and pauses it, and sends an RCon command with its answer', { timeout: 90_000 }, async () => {
    const { page, errors, sockets } = await open('console');
    const log = page.getByRole('log', { name: 'Game log' });
    // One socket, for this server only: the page is not sent other servers' log lines.
    const servers = () => [...sockets].map((url) => new URL(url).searchParams.getAll('server_id').join());
    await waitFor(() => servers().join('|') === String(serverId), {
      what: `one WebSocket, for server ${serverId} (open: ${servers().join('|')})`,
    });

    await rcon(page, 'players');
    const answers = page.getByRole('list', { name: 'Command answers' });
    await answers.getByText('Players on server:').waitFor();
    await answers.getByText('(0 players in total)').waitFor();
    // Kept across a tab switch, the newest answer in view.
    await page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name: 'Audit', exact: true }).click();
    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await answers.getByText('(0 players in total)').waitFor();
    for (let i = 0; i < 8; i++) await rcon(page, 'players');
    await waitFor(async () => (await answers.locator('pre').allInnerTexts()).every((t) => t !== '…'), { what: 'every answer in' });
    const scrolled = await answers.evaluate((box) => box.scrollHeight - box.clientHeight - box.scrollTop);
    assert.ok(scrolled <= 1, `the box follows the newest answer (${scrolled} px above the bottom)`);

    // #monitor makes the game write a line to its log: it arrives over the WebSocket, with no reload.
    await rcon(page, '#monitor 1');
    await log
      .getByText(/Server load: FPS/)
      .first()
      .waitFor({ timeout: 30_000 });
    await page.getByLabel('Level').selectOption('error');
    await log
      .getByText(/Server load: FPS/)
      .first()
      .waitFor({ state: 'detached' });
    await page.getByLabel('Level').selectOption('');
    await log.getByText('Dedicated host created.').waitFor(); // all levels again
    await page.getByLabel('Search').fill('Server load');
    // The search applies once typing pauses: the game's other lines go, its load lines stay.
    await log.getByText('Dedicated host created.').waitFor({ state: 'detached' });
    await log
      .getByText(/Server load: FPS/)
      .first()
      .waitFor();

    await page.getByRole('button', { name: 'Pause' }).click();
    const before = await log.getByText(/Server load: FPS/).count();
    await rcon(page, '#monitor 1');
    await page.getByRole('button', { name: /Resume \(1 new\)/ }).waitFor({ timeout: 30_000 });
    assert.equal(await log.getByText(/Server load: FPS/).count(), before, 'a paused view holds new lines back');
    await page.getByRole('button', { name: /Resume/ }).click();
    await waitFor(async () => (await log.getByText(/Server load: FPS/).count()) === before + 1, { what: 'the held line to show' });
    await page.getByLabel('Search').fill('');

    // The game's known commands are offered as the user types.
    const offered = await page.locator('#rcon-commands option').evaluateAll((options) => options.map((o) => o.getAttribute('label') ?? ''));
    assert.ok(offered.includes('#mission <NAME.TERRAIN> [difficulty]') && offered.includes('say -1 <MESSAGE>'), offered.join(', '));

    await screenshot(page, 'server-console-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'server-console-phone');
    assert.deepEqual(errors, []);
  });

  it('loads the stored history page by page when scrolled back, without repeating a line', { timeout: 90_000 }, async () => {
    const { g: h, fake } = suite;
    const files = (await h.api('GET', `/servers/${serverId}/logfiles`, { token })).body.data as { filename: string }[];
    const rpt = join(fake.dir, 'server', files.find((f) => f.filename.endsWith('.rpt'))!.filename);
    const total = async () =>
      (await h.api('GET', `/servers/${serverId}/logs?search=History%20line&limit=1`, { token })).body.data.total as number;
    // 450 lines, under the service's 200 lines a second: batches of 90 written more than a second apart,
    // so that one second of reading can hold two batches at most (180, with room for the game's own lines).
    for (let batch = 0; batch < 5; batch++) {
      const lines = Array.from({ length: 90 }, (_, i) => `History line ${String(batch * 90 + i + 1).padStart(3, '0')}\n`).join('');
      const appendedAt = Date.now();
      await appendFile(rpt, lines);
      await waitFor(async () => Date.now() - appendedAt > 1_100 && (await total()) >= (batch + 1) * 90, {
        timeoutMs: 30_000,
        intervalMs: 200,
        what: `batch ${batch + 1} stored`,
      });
    }
    const { page, errors } = await open('console');
    const log = page.getByRole('log', { name: 'Game log' });
    await log.getByText('History line 450').waitFor();
    assert.equal(await log.getByText(/^History line \d+$/).count(), 200, 'the newest page first');
    await log.evaluate((el) => (el.scrollTop = 0)); // scrolling to the top asks for the page before
    await log.getByText('History line 250', { exact: true }).waitFor();
    // Then the button, until the start: a scroll position restored at the top may have asked by itself already.
    const start = log.getByText('Start of the stored log');
    await waitFor(
      async () => {
        if (await start.isVisible()) return true;
        await log
          .getByRole('button', { name: 'Load older lines' })
          .click({ timeout: 1_000 })
          .catch(() => {});
        return false;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: 'the start of the stored log' },
    );
    await log.getByText('History line 001', { exact: true }).waitFor();
    const shown = await log.getByText(/^History line \d+$/).allTextContents();
    assert.equal(shown.length, 450, 'each line once');
    assert.deepEqual(shown, [...shown].sort(), 'oldest first');
    assert.deepEqual(errors, []);
  });

  it('uploads missions with a progress bar, and sets the rotation by drag and drop with a difficulty', { timeout: 90_000 }, async () => {
    const { g: h } = suite;
    const { page, errors } = await open('missions');
    const escape = { name: 'co10_Escape.Altis.pbo', mimeType: 'application/octet-stream', buffer: Buffer.alloc(3 * 1024 * 1024, 7) };
    const arena = { name: 'tdm_Arena.Stratis.pbo', mimeType: 'application/octet-stream', buffer: Buffer.from('arena') };
    // A slow uplink (Chromium's own network emulation), so that the upload lasts long enough to watch its progress.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });
    // A file the game would not load among them: said, and the others still go up.
    const unnamed = { name: 'readme.pbo', mimeType: 'application/octet-stream', buffer: Buffer.from('no terrain in the name') };
    await page.getByLabel(/Upload a mission/).setInputFiles([escape, unnamed, arena]);
    const progress = page.getByRole('progressbar');
    const seen = await waitFor(
      async () => {
        const value = Number(await progress.getAttribute('value', { timeout: 1_000 }));
        return value > 0 && value < escape.buffer.length && value;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: 'the progress bar to move' },
    );
    assert.ok(seen > 0);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page
      .getByRole('status')
      .filter({ hasText: /Uploaded co10_Escape\.Altis\.pbo \(.*\), tdm_Arena\.Stratis\.pbo/ })
      .waitFor({ timeout: 30_000 });
    assert.match(await page.getByRole('alert').filter({ hasText: 'Not uploaded' }).innerText(), /readme\.pbo: /);
    const files = page.getByRole('table', { name: /Mission files/ });
    await files.getByRole('cell', { name: 'co10_Escape.Altis', exact: true }).waitFor();
    await files.getByRole('cell', { name: 'tdm_Arena.Stratis', exact: true }).waitFor();
    assert.equal(
      (await h.api('GET', `/servers/${serverId}/missions`, { token })).body.data.missions.find(
        (m: { name: string }) => m.name === 'co10_Escape.Altis',
      ).size_bytes,
      escape.buffer.length,
    );

    for (const mission of ['co10_Escape.Altis', 'tdm_Arena.Stratis']) {
      await page.getByLabel('Mission to add').selectOption(mission);
      await page.getByRole('button', { name: 'Add to rotation' }).click();
    }
    await page.getByLabel('Difficulty of co10_Escape.Altis').selectOption('Veteran');
    const entries = page.getByTestId('rotation-entry');
    await entries.nth(1).dragTo(entries.nth(0));
    assert.deepEqual(await entries.locator('.rotation-name').allTextContents(), ['tdm_Arena.Stratis', 'co10_Escape.Altis']);
    await page.getByRole('button', { name: 'Save rotation' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (await h.api('GET', `/servers/${serverId}/missions/rotation`, { token })).body.data;
    assert.deepEqual(saved.missions, [
      { name: 'tdm_Arena.Stratis', difficulty: '' },
      { name: 'co10_Escape.Altis', difficulty: 'Veteran' },
    ]);
    await screenshot(page, 'server-missions-desktop');

    // A rotation entry with no mission file: saved, said in the answer, and marked in the editor.
    const rotation = `/servers/${serverId}/missions/rotation`;
    const withGone = await h.api('PUT', rotation, {
      token,
      body: { missions: [...saved.missions, { name: 'co99_Gone.Altis', difficulty: '' }], config_version: saved.config_version },
    });
    assert.equal(withGone.status, 200, JSON.stringify(withGone.body));
    assert.equal(withGone.body.data.warnings.length, 1);
    assert.match(withGone.body.data.warnings[0], /^co99_Gone\.Altis is not installed/);
    await entries.filter({ hasText: 'co99_Gone.Altis' }).getByText('not installed').waitFor({ timeout: 20_000 });
    assert.equal(await entries.filter({ hasText: 'tdm_Arena.Stratis' }).getByText('not installed').count(), 0);
    await h.api('PUT', rotation, { token, body: { missions: saved.missions, config_version: withGone.body.data.config_version } });
    assert.deepEqual(
      errors,
      ['Failed to load resource: the server responded with a status of 400 (Bad Request)'],
      'the refused readme.pbo only',
    );
  });

  it(
    'says a message to all players from the console, and plays a mission now from the Missions tab: both audited',
    { timeout: 90_000 },
    async () => {
      const { g: h } = suite;
      const { page, errors } = await open('console');
      const say = page.getByRole('form', { name: 'Message to all players' });
      await say.getByLabel('Message to all players').fill('Restart in 10 minutes');
      await say.getByRole('button', { name: 'Say to all' }).click();
      await say.getByRole('status').filter({ hasText: 'Sent to all players: “Restart in 10 minutes”' }).waitFor();
      const said = (await h.api('GET', `/servers/${serverId}/events?event_type=command`, { token })).body.data.events.map(
        (e: { detail: { message?: string } }) => e.detail.message,
      );
      assert.ok(said.includes('Restart in 10 minutes'), 'audited');

      await page.getByRole('link', { name: 'Missions', exact: true }).click();
      await page.getByRole('button', { name: 'Play co10_Escape.Altis now' }).click();
      const dialog = page.getByRole('dialog');
      assert.match(await dialog.innerText(), /Every player on the server is taken to this mission at once/);
      await dialog.getByRole('button', { name: 'Play now' }).click();
      await page.getByRole('status').filter({ hasText: 'Playing co10_Escape.Altis' }).waitFor();
      // The game took it: its log says so (the console's live log is the test above's).
      await waitFor(
        async () =>
          (await h.api('GET', `/servers/${serverId}/logs?search=${encodeURIComponent('Starting mission: co10_Escape.Altis')}`, { token }))
            .body.data.total > 0,
        { timeoutMs: 30_000, what: "the game's log line of the mission" },
      );
      const played = (await h.api('GET', `/servers/${serverId}/events?event_type=mission_played`, { token })).body.data.events;
      assert.deepEqual(
        played.map((e: { detail: unknown; actor: string }) => [e.detail, e.actor]),
        [[{ name: 'co10_Escape.Altis', difficulty: '' }, 'admin']],
      );
      assert.deepEqual(errors, []);
    },
  );

  it('edits a config field, and resolves a conflict with a second session by reapplying the change', { timeout: 90_000 }, async () => {
    const { g: h } = suite;
    const second = await h.userToken('admin');
    const a = await open('config');
    const b = await open('config', second);
    // Both have read the server section (its fields are drawn once it is read); then A saves first.
    await b.page.getByLabel('Max players').waitFor();
    await a.page.getByLabel('Max players').waitFor();
    // Each field says what it does, its default and its bounds; a search finds a setting in any section.
    await a.page.locator('#cfg-server-max_players-help').filter({ hasText: 'Slots on the server' }).waitFor({ timeout: 20_000 });
    assert.match((await a.page.getByLabel('Max players').getAttribute('aria-describedby')) ?? '', /max_players-help/);
    assert.match(await a.page.locator('#cfg-server-max_players-help').innerText(), /Default: 40\. From 1 to 1000\.$/);
    await a.page.getByLabel('Find a setting').fill('packet size');
    await a.page.getByRole('tab', { name: /Basic \(3\)/ }).waitFor();
    assert.equal(await a.page.getByRole('tab', { name: /^Server/ }).count(), 0, 'no match in the server section');
    await a.page.getByRole('tab', { name: /Basic/ }).click();
    await a.page.getByLabel('Max packet size').waitFor();
    assert.equal(await a.page.getByLabel('Max messages per frame').count(), 0);
    await a.page.getByLabel('Find a setting').fill('');
    await a.page.getByRole('tab', { name: 'Server' }).click();
    // B begins an edit; A changes the name and saves while B is at it.
    await b.page.getByLabel('Max players').fill('48');
    await a.page.getByLabel('Server name').fill('Sunday Ops | Public');
    // Typed key by key: a line being started must survive each keystroke.
    const motd = a.page.getByLabel('Message of the day');
    await motd.pressSequentially('Welcome');
    await motd.press('Enter');
    await motd.press('Enter');
    await motd.pressSequentially('Be nice');
    await screenshot(a.page, 'config-editor-desktop');
    await a.page.getByRole('button', { name: 'Save Server' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    // B's page hears of A's save (and shows A's name), but B's edit began on the older version: a conflict.
    await waitFor(async () => (await b.page.getByLabel('Server name').inputValue()) === 'Sunday Ops | Public', {
      timeoutMs: 20_000,
      what: "A's name on B's page",
    });
    await b.page.getByRole('button', { name: 'Save Server' }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Changed by someone else' });
    await dialog.waitFor();
    const row = dialog.getByRole('row').filter({ hasText: 'Max players' });
    assert.equal(await row.getByTestId('mine').textContent(), '48');
    await dialog.getByRole('button', { name: 'Apply my change on top' }).click();
    await b.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    // B's form now shows A's name: the values saved by both.
    assert.equal(await b.page.getByLabel('Server name').inputValue(), 'Sunday Ops | Public');

    const server = (await h.api('GET', `/servers/${serverId}/config/server`, { token })).body.data;
    assert.equal(server.hostname, 'Sunday Ops | Public');
    assert.equal(server.max_players, 48);
    assert.deepEqual(server.motd_lines, ['Welcome', 'Be nice'], 'empty lines dropped');

    await a.page.setViewportSize(PHONE);
    await screenshot(a.page, 'config-editor-phone');
    assert.deepEqual([...a.errors, ...b.errors.filter((e) => !/409/.test(e))], []);
  });

  it(
    'kicks a live player, adds and revokes a ban, enables a mod, and shows metrics, the audit trail and log files',
    { timeout: 90_000 },
    async () => {
      const { g: h } = suite;
      const GUID = '0123456789abcdef0123456789abcdef';
      const { page, errors } = await open('players');
      await h.api('POST', `/servers/${serverId}/rcon/command`, { token, body: { command: `testkit.join Dave ${GUID} 10.0.0.9` } });
      const players = page.getByRole('table', { name: /Players on/ });
      await players.getByRole('cell', { name: 'Dave', exact: true }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Kick Dave' }).click();
      const kick = page.getByRole('dialog', { name: 'Kick Dave?' });
      await kick.getByLabel('Reason').fill('afk');
      await kick.getByRole('button', { name: 'Kick' }).click();
      await page.getByRole('status').filter({ hasText: 'Dave was kicked.' }).waitFor();
      await page.getByText(/No one is on the server/).waitFor({ timeout: 30_000 }); // the live list, with no reload
      // The visit is in the history below, read again when the player list changed; searchable.
      const history = page.getByRole('table', { name: /Player history of/ });
      const visit = history.getByRole('row').filter({ hasText: 'Dave' }).first();
      await visit.waitFor({ timeout: 20_000 });
      await visit.filter({ hasNotText: 'on now' }).waitFor({ timeout: 20_000 });
      await page.getByLabel('Search the history').fill('nobody-like-this');
      await page.getByText('No one matching “nobody-like-this” has played here.').waitFor();
      await page.getByLabel('Search the history').fill('Dav');
      await history.getByRole('cell', { name: 'Dave', exact: true }).first().waitFor();

      await page.getByRole('link', { name: 'Bans', exact: true }).click();
      await page.getByRole('button', { name: 'Add ban' }).click();
      const add = page.getByRole('dialog', { name: 'Add a ban' });
      await add.getByLabel('GUID or IP address').fill(GUID);
      await add.getByLabel('Reason').fill('teamkilling');
      await add.getByRole('button', { name: 'Ban' }).click();
      const bans = page.getByRole('table', { name: /Bans of/ });
      await bans.getByText(GUID).waitFor();
      await bans.getByRole('button', { name: `Revoke the ban of ${GUID}` }).click();
      await page.getByRole('dialog', { name: 'Revoke this ban?' }).getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('No bans.').waitFor();
      // An address typed in: the dialog picks the IP type by itself.
      await page.getByRole('button', { name: 'Add ban' }).click();
      await add.getByLabel('GUID or IP address').fill('203.0.113.7');
      assert.equal(await add.getByLabel('Ban by').inputValue(), 'IP');
      await add.getByRole('button', { name: 'Ban' }).click();
      await bans.getByText('203.0.113.7').waitFor();
      const ipBan = (await h.api('GET', `/servers/${serverId}/bans`, { token })).body.data[0];
      assert.deepEqual([ipBan.guid, ipBan.ban_type], ['203.0.113.7', 'IP']);
      await bans.getByRole('button', { name: 'Revoke the ban of 203.0.113.7' }).click();
      await page.getByRole('dialog', { name: 'Revoke this ban?' }).getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('No bans.').waitFor();

      await page.getByRole('link', { name: 'Mods', exact: true }).click();
      await page.getByLabel('Enable @cba').check();
      await page.getByLabel('Load @cba on the server only').check();
      await page.getByRole('button', { name: 'Save mods' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /next start/ })
        .waitFor();
      const mods = (await h.api('GET', `/servers/${serverId}/mods`, { token })).body.data.mods;
      assert.deepEqual(
        mods.map((m: { name: string; enabled: boolean; is_server_mod: boolean }) => [m.name, m.enabled, m.is_server_mod]),
        [['@cba', true, true]],
      );

      await page.getByRole('link', { name: 'Metrics', exact: true }).click();
      for (const chart of ['CPU', 'Memory', 'Players'])
        await page
          .getByRole('img', { name: `${chart} over time` })
          .locator('canvas')
          .waitFor();
      // "Last hour" spans the hour, whatever part of it has samples.
      const span = await page
        .getByRole('img', { name: 'Players over time' })
        .evaluate((el) => Number(el.getAttribute('data-to')) - Number(el.getAttribute('data-from')));
      assert.equal(span, 3600);
      // Players are whole numbers, in the caption as on the axis (the stored points keep a bucket's most).
      const playersCaption = page.locator('figcaption').filter({ hasText: /^Players/ });
      await playersCaption.filter({ hasText: /now/ }).waitFor({ timeout: 30_000 });
      assert.match(await playersCaption.innerText(), /^Players\s*·\s*now \d+$/);

      await page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name: 'Audit', exact: true }).click();
      const audit = page.getByRole('table', { name: /Audit trail/ });
      await audit.getByRole('cell', { name: 'kick', exact: true }).waitFor();
      await audit.getByRole('cell', { name: 'unban', exact: true }).nth(1).waitFor(); // the GUID's and the address's

      await page.getByRole('link', { name: 'Log files', exact: true }).click();
      const download = page.waitForEvent('download');
      await page
        .getByRole('button', { name: /^Download .*\.rpt$/ })
        .first()
        .click();
      assert.match((await download).suggestedFilename(), /\.rpt$/);
      assert.deepEqual(errors, []);
    },
  );

  it('lets an admin add, remove, promote users and set their password, and anyone change their own', { timeout: 60_000 }, async () => {
    const { g: h } = suite;
    const { page, errors } = await open('console');
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('dialog', { name: 'New user' });
    await form.getByLabel('Username').fill('night_watch');
    await form.getByLabel('Password').fill('watch-the-night');
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Create' }).click();
    const users = page.getByRole('table', { name: 'Users' });
    await users.getByRole('cell', { name: 'night_watch', exact: true }).waitFor();

    const viewer = await suite.newContext({ viewport: PHONE });
    const other = await viewer.newPage();
    await signIn(other, h.url, 'night_watch', 'watch-the-night');
    await other.getByRole('link', { name: 'Account' }).click();
    await other.getByLabel('Current password').fill('watch-the-night');
    await other.getByLabel('New password', { exact: true }).fill('a-brighter-night');
    await other.getByLabel('New password again').fill('a-brighter-night');
    await other.getByRole('button', { name: 'Change password' }).click();
    await other.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor();
    assert.match(
      (await other.getByRole('status').filter({ hasText: 'Your password was changed.' }).getAttribute('class')) ?? '',
      /\bsuccess\b/,
      'a success in its own colour',
    );
    assert.equal((await h.api('POST', '/auth/login', { body: { username: 'night_watch', password: 'a-brighter-night' } })).status, 200);

    // The admin makes them an admin: their session ends at once, and their page says so.
    await users.getByLabel('Role of night_watch').selectOption('admin');
    await waitFor(
      async () =>
        (await h.api('GET', '/auth/users', { token })).body.data.some(
          (u: { username: string; role: string }) => u.username === 'night_watch' && u.role === 'admin',
        ),
      { what: 'the new role' },
    );
    // (Its next request finds out: the page shown is cached, so a reload asks.)
    await other.reload();
    await other
      .getByRole('status')
      .filter({ hasText: /Your session has ended/ })
      .waitFor();
    // And sets their password.
    await users.getByRole('button', { name: 'Set the password of night_watch' }).click();
    const reset = page.getByRole('dialog', { name: 'New password for night_watch' });
    await reset.getByLabel('New password').fill('the-admin-chose-this');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.waitFor({ state: 'detached' });
    assert.equal((await h.api('POST', '/auth/login', { body: { username: 'night_watch', password: 'the-admin-chose-this' } })).status, 200);
    // Not their own: an admin's own row has no role control.
    assert.equal(await users.getByLabel('Role of admin', { exact: true }).count(), 0);

    await users.getByRole('button', { name: 'Delete night_watch' }).click();
    await page.getByRole('dialog', { name: 'Delete night_watch?' }).getByRole('button', { name: 'Delete' }).click();
    await users.getByRole('cell', { name: 'night_watch', exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  it("edits the server's record from its page", { timeout: 60_000 }, async () => {
    const { g: h, fake } = suite;
    const { page, errors } = await open('console');
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Sunday Ops' });
    assert.equal(await dialog.getByLabel('Executable path').inputValue(), fake.exePath, 'the form starts from the record');
    await dialog.getByLabel('Description (optional)').fill('Co-op every Sunday, 18:00 UTC');
    await dialog.getByLabel('Restarts at most').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Co-op every Sunday, 18:00 UTC').waitFor();
    const record = (await h.api('GET', `/servers/${serverId}`, { token })).body.data;
    assert.equal(record.description, 'Co-op every Sunday, 18:00 UTC');
    assert.equal(record.max_restarts, 5);
    assert.deepEqual(errors, []);
  });

  it(
    'shows the headless clients with their state, live through a crash and its restart, and their count in the edit form',
    { timeout: 200_000 },
    async () => {
      const { g: h, fake } = suite;
      const created = await h.api('POST', '/servers', {
        token,
        body: { name: 'HC Ops', exe_path: fake.exePath, ...(await freeGamePorts()), headless_clients: 2 },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const hcServer = created.body.data.id as number;
      try {
        const { page, errors } = await suite.signedInPage({ username: 'admin', password: h.adminPassword });
        await page.goto(`${h.url}/#/servers/${hcServer}/console`);
        await page.getByRole('heading', { name: 'HC Ops' }).waitFor();
        const row = (index: number) => page.getByTestId(`process-headless-${index}`);
        await row(1).waitFor(); // listed before the start, stopped

        await page.getByRole('button', { name: 'Start' }).click();
        // Through the API first, with what it says when it does not come: then the page must show it.
        const processes = async () =>
          (await h.api('GET', `/servers/${hcServer}/processes`, { token })).body.data as {
            role: string;
            index: number;
            pid: number;
            status: string;
          }[];
        let seen: unknown;
        await waitFor(async () => ((seen = await processes()) as { status: string }[]).filter((p) => p.status === 'running').length === 3, {
          timeoutMs: 120_000,
          intervalMs: 2_000,
          what: 'the server and its two headless clients running',
        }).catch((err: Error) => {
          throw new Error(`${err.message}: ${JSON.stringify(seen)}`);
        });
        for (const index of [1, 2]) await row(index).getByText('running').waitFor({ timeout: 15_000 });
        await page.getByTestId('process-server-0').getByText('running').waitFor();

        // One client crashes: its row says so and comes back running with one restart, the other untouched.
        const first = (await processes()).find((p) => p.role === 'headless' && p.index === 1)!;
        process.kill(first.pid, 'SIGUSR2'); // the fake client's fault switch: exit as a crash
        await waitFor(
          async () => (await row(1).locator('td').nth(3).textContent()) === '1' && (await row(1).getByText('running').count()) === 1,
          {
            timeoutMs: 30_000,
            what: 'headless client 1 restarted once',
          },
        );
        assert.equal(await row(2).locator('td').nth(3).textContent(), '0');

        await page.getByRole('button', { name: 'Edit' }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit HC Ops' });
        assert.equal(await dialog.getByLabel('Headless clients').inputValue(), '2');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await screenshot(page, 'server-headless-desktop');
        assert.deepEqual(errors, []);
      } finally {
        await h.api('POST', `/servers/${hcServer}/kill`, { token });
      }
    },
  );

  it('names every control on every tab, and works from the keyboard', { timeout: 60_000 }, async () => {
    const { g: h } = suite;
    const context = await suite.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(h.url);
    // Sign-in by keyboard alone: the username field takes the focus once the page is up.
    await waitFor(() => page.getByLabel('Username').evaluate((el) => el === el.ownerDocument.activeElement), {
      what: 'the focus on the username field',
    });
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type(h.adminPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Servers' }).waitFor();

    // A control without a name is one a screen reader cannot tell apart.
    const UNNAMED = `[...document.querySelectorAll('main button, main input, main select, main textarea, main a[href]')]
      .filter((el) => !(el.getAttribute('aria-label') || (el.labels && el.labels.length) || el.textContent.trim()))
      .map((el) => el.outerHTML.slice(0, 120))`;
    for (const tab of ['console', 'players', 'bans', 'missions', 'mods', 'config', 'metrics', 'logfiles', 'audit']) {
      await page.goto(`${h.url}/#/servers/${serverId}/${tab}`);
      await page.locator('.tab-panel').waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await page.evaluate(UNNAMED), [], tab);
    }

    // Tabs are links, dialogs keep the focus and close on Escape.
    await page.getByRole('link', { name: 'Bans', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Add ban' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a ban' });
    await dialog.waitFor();
    assert.ok(await dialog.evaluate((el) => el.contains(el.ownerDocument.activeElement)), 'the focus moves into the dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('offers a viewer no control on the server page', { timeout: 60_000 }, async () => {
    const { g: h } = suite;
    const viewer = await h.userToken('viewer');
    const { page } = await open('console', viewer);
    await page.getByRole('log', { name: 'Game log' }).waitFor();
    const controls = /^(Start|Stop|Restart|Kill|Edit|Send|Kick|Ban|Add ban|Revoke|Delete|Save.*|Add to rotation)$/;
    const offered = async () => (await page.locator('main button:visible').allTextContents()).filter((t) => controls.test(t.trim()));
    assert.deepEqual(await offered(), []);
    assert.equal(await page.getByLabel('RCon command').count(), 0);
    for (const tab of ['players', 'bans', 'missions', 'mods', 'logfiles', 'config']) {
      await page.goto(`${h.url}/#/servers/${serverId}/${tab}`);
      await page.locator('.tab-panel').waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await offered(), [], tab);
    }
    assert.equal(await page.locator('input[type=file]').count(), 0);
    assert.equal(await page.getByRole('tab', { name: 'Preview' }).count(), 0, 'the preview holds passwords: admins only');
    assert.ok(await page.getByLabel('Server name').isDisabled(), 'config fields are read-only');
  });

  it('shows "slow down" with the wait when the rate limit is reached, never a broken page', { timeout: 60_000 }, async () => {
    const { g: h } = suite;
    const user = await h.userToken('admin');
    const { page } = await open('console', user, PHONE);
    const pageToken = await page.evaluate(
      () =>
        JSON.parse((globalThis as unknown as { sessionStorage: { getItem(k: string): string } }).sessionStorage.getItem('garrison.session'))
          .token as string,
    );
    // Spend what is left of the page's token's minute from outside the page.
    await waitFor(async () => (await h.api('GET', '/auth/me', { token: pageToken })).status === 429, {
      timeoutMs: 30_000,
      intervalMs: 1,
      what: 'the token to reach its rate limit',
    });
    await page.reload();
    await page
      .getByRole('alert')
      .filter({ hasText: /Slow down: too many requests\. Retrying in \d+ s\./ })
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
});
