import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  FAKE_STEAM_ACCOUNTS,
  FakeSteamWorld,
  freeGamePorts,
  installFakeSteamcmd,
  startFakeSteamWebApi,
  waitFor,
  type FakeSteamWebApi,
} from '@garrison/testkit';
import type { GarrisonOptions } from '@garrison/testkit/harness';
import { gamea } from '@garrison/adapter-gamea';
import type { Locator, Page } from 'playwright-core';
import { browserSuite, screenshot } from './browser.js';

// SteamCMD and the Workshop in the console, against the testkit's fake steamcmd and fake Steam Web API
// (the service spawns the fake with its own environment: the world's paths go there).
const world = FakeSteamWorld.create();
Object.assign(process.env, world.env());

const SERVER_APP = String(gamea.steam?.server_app_id);
const WORKSHOP_APP = String(gamea.steam?.workshop_app_id);
const BRANCH_PASSWORD = 'Prof-Branch-Secret-7';
const { owner, guarded } = FAKE_STEAM_ACCOUNTS;
const [A, B, C] = ['2200001', '2200002', '2200003'];
const COLLECTION = '3200001';
/** The Workshop mods of the server tests' launcher preset (fixtures/presets/sunday-ops.preset.html). */
const PRESET_ITEMS = ['450814997', '463939057', '2034363662'];
const PRESET = new URL('../../server/test/fixtures/presets/sunday-ops.preset.html', import.meta.url).pathname;
const TIMEOUT = { timeout: 120_000 };

function prepareWorld(): void {
  world.edit((s) => {
    const template = Object.values(s.apps).find((a) => !a.anonymous && a.branches.legacy)!;
    s.apps[SERVER_APP] = {
      ...template,
      branches: {
        public: { buildid: '10000', timeupdated: 1_700_000_000 },
        profiling: { buildid: '10001', timeupdated: 1_700_000_060, password: BRANCH_PASSWORD },
        performance: { buildid: '10002', timeupdated: 1_700_000_120 },
      },
    };
    s.apps[WORKSHOP_APP] = { ...template, branches: { public: { buildid: '1', timeupdated: 1_700_000_000 } } };
    for (const account of Object.values(s.accounts)) if (account.owns.length) account.owns.push(SERVER_APP, WORKSHOP_APP);
    // A machine that gave the right code once is remembered, as steamcmd's sentry does.
    s.accounts[guarded.username].remember_guard = true;
  });
  world.addItem(A, { app: WORKSHOP_APP, title: 'Alpha Core', files: { 'Addons/Alpha.pbo': 'a\n', 'Keys/Alpha.bikey': 'a\n' } });
  world.addItem(B, { app: WORKSHOP_APP, title: 'Bravo Maps', files: { 'addons/b.pbo': 'b\n' } });
  world.addItem(C, { app: WORKSHOP_APP, title: 'Charlie Sounds', files: { 'addons/c.pbo': 'c\n', 'c.bikey': 'c\n' } });
  world.setCollection(COLLECTION, [B]);
  for (const id of PRESET_ITEMS) world.addItem(id, { app: WORKSHOP_APP, title: `Preset mod ${id}` });
}

describe('SteamCMD and the Workshop in a real Chromium: the Steam account, the install, the Workshop tab', () => {
  let root: string;
  let webApi: FakeSteamWebApi | undefined;
  const garrison: GarrisonOptions = {};
  // Registered before the suite's own: the fakes exist when the service starts with their settings.
  before(async () => {
    prepareWorld();
    root = await mkdtemp(join(tmpdir(), 'garrison-web-steam-'));
    webApi = await startFakeSteamWebApi({ world });
    garrison.steamcmdPath = (await installFakeSteamcmd(join(root, 'bin'))).executables[0];
    garrison.steamApiUrl = webApi.url;
    garrison.steamDir = join(root, 'steam');
  });
  let running = 0; // the server the last test starts, killed at the end
  const suite = browserSuite({
    fakeGame: true,
    garrison,
    beforeClose: async ({ g }) => void (running && (await g.api('POST', `/servers/${running}/kill`, { token: g.adminToken }))),
  });
  after(async () => {
    await webApi?.close();
    await rm(root, { recursive: true, force: true });
    world.remove();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await suite.g.api(method, path, { token: suite.g.adminToken, body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const createServer = async (name: string, exePath: string): Promise<number> =>
    (await api('POST', '/servers', { name, exe_path: exePath, ...(await freeGamePorts()) })).id;
  const tab = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name, exact: true });
  const rowOf = (page: Page, name: string): Locator => page.getByRole('row').filter({ hasText: name });
  const statusOf = (page: Page, name: string) => rowOf(page, name).getByTestId('workshop-status');
  let page: Page;
  let errors: string[];

  it('sets the Steam account on its page, shows whether a password is set (never the password), removes it', TIMEOUT, async () => {
    ({ page, errors } = await suite.signedInPage());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Steam', exact: true }).click();
    await page.getByRole('heading', { name: 'Steam account' }).waitFor();
    await page.getByText('No Steam account is set').waitFor();
    // Chromium logs the 404 that says no account is set: the one error expected.
    assert.deepEqual(errors.splice(0), ['Failed to load resource: the server responded with a status of 404 (Not Found)']);
    const save = async (username: string, password: string) => {
      await page.getByLabel('Steam username').fill(username);
      await page.getByLabel('Steam password').fill(password);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByTestId('steam-username').filter({ hasText: username }).waitFor();
    };
    await save(owner.username, owner.password);
    assert.match(await page.locator('main').innerText(), /Password\s+Set/);
    await page.getByRole('button', { name: 'Remove the account' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove the account' }).click();
    await page.getByText('No Steam account is set').waitFor();
    assert.equal((await suite.g.api('GET', '/steam/account', { token: suite.g.adminToken })).status, 404);

    await save(guarded.username, guarded.password);
    await screenshot(page, 'steam-account');
    const html = await page.content();
    assert.ok(!html.includes(guarded.password), 'the password is in no page');
    assert.deepEqual(errors, []);
  });

  it(
    "installs the server on a declared branch: the Guard code asked and the request retried, a branch password's error readable",
    TIMEOUT,
    async () => {
      const id = await createServer('Steam Install', join(root, 'server', 'gameaserver_x64.exe'));
      await page.goto(`${suite.g.url}/#/servers/${id}/install`);
      await page.getByText('Not installed').waitFor();
      const form = page.getByRole('form', { name: 'Install or update' });
      await form.getByLabel('Branch').selectOption('profiling');
      await form.getByLabel('Branch password').fill('not-the-password');
      await form.getByRole('button', { name: 'Install' }).click();

      // The guarded account's first login wants a code: the console asks for it and sends the install again.
      const guard = page.getByRole('form', { name: 'Steam Guard code' });
      await guard.waitFor();
      assert.match(await page.getByRole('alert').first().innerText(), /Server install failed: .*Guard/i);
      await guard.getByLabel('Steam Guard code').fill(guarded.guard_code);
      await guard.getByLabel('Steam password').fill(guarded.password);
      await guard.getByRole('button', { name: 'Send the code and retry' }).click();
      // The retried request carried the wrong branch password: said as such, with what to do.
      const refused = page.locator('.job .problem');
      await refused.filter({ hasText: /branch's current password/ }).waitFor({ timeout: 30_000 });
      assert.equal(await refused.locator('[data-code]').getAttribute('data-code'), 'STEAM_BRANCH_PASSWORD');

      world.setDelay(400); // progress lines slow enough to be seen
      await form.getByLabel('Branch password').fill(BRANCH_PASSWORD);
      await form.getByRole('button', { name: 'Install' }).click();
      await page.getByRole('progressbar', { name: 'Server install progress' }).waitFor();
      world.setDelay(0);
      await page.getByText('Server install: done.').waitFor({ timeout: 30_000 });
      await page.getByText('10001', { exact: true }).waitFor();
      assert.match(await page.locator('.install .figures').innerText(), /Branch\s+profiling/);
      assert.ok(!(await page.content()).includes(BRANCH_PASSWORD), 'the branch password is in no page');
      assert.deepEqual(errors, []);
    },
  );

  let workshopServer = 0;
  it('shows the Workshop tab for a game with a Workshop, empty, and checks it with Steam', TIMEOUT, async () => {
    await api('PUT', '/steam/account', owner);
    await mkdir(join(dirname(suite.fake.exePath), 'keys'), { recursive: true });
    await writeFile(join(dirname(suite.fake.exePath), 'keys', 'a3.bikey'), 'game\n');
    workshopServer = await createServer('Workshop Ops', suite.fake.exePath);
    await page.goto(`${suite.g.url}/#/servers/${workshopServer}/console`);
    await tab(page, 'Workshop').click();
    await page.getByText('No Workshop items on this server.').waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByRole('status').filter({ hasText: 'Checked 0 items with Steam: nothing new.' }).waitFor();
    assert.deepEqual(errors, []);
  });

  // Against POST /servers/{id}/workshop and …/workshop/update as documented (docs/workshop.md).
  it('adds items by id and URL and a collection, marks one outdated, shows a download in progress, updates, removes', TIMEOUT, async () => {
    await page.goto(`${suite.g.url}/#/servers/${workshopServer}/workshop`);
    const ids = page.getByLabel('Workshop ids or URLs');
    await ids.fill(`${A}, https://steamcommunity.com/sharedfiles/filedetails/?id=${B}`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Workshop download: done.').waitFor({ timeout: 60_000 });
    await statusOf(page, 'Alpha Core').filter({ hasText: 'installed' }).waitFor();
    await statusOf(page, 'Bravo Maps').filter({ hasText: 'installed' }).waitFor();
    assert.match(await rowOf(page, 'Alpha Core').innerText(), /alpha\.bikey/);

    world.updateItem(A); // a new version upstream: Check now finds it
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByRole('status').filter({ hasText: '1 newly outdated' }).waitFor();
    await statusOf(page, 'Alpha Core').filter({ hasText: 'outdated' }).waitFor();
    // The dashboard's card of the server says so too.
    await page.goto(`${suite.g.url}/#/`);
    await page.reload();
    await page.locator(`li.server[data-server-id="${workshopServer}"] [data-warning="mods_outdated"]`).waitFor();
    await page.goto(`${suite.g.url}/#/servers/${workshopServer}/workshop`);

    world.setDelay(3000); // a download slow enough to be seen in progress
    await ids.fill(C);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('progressbar', { name: 'Workshop download progress' }).waitFor();
    await rowOf(page, C).waitFor();
    await screenshot(page, 'workshop-tab');
    world.setDelay(0);
    await page.getByText('Workshop download: done.').waitFor({ timeout: 60_000 });
    await statusOf(page, 'Charlie Sounds').filter({ hasText: 'installed' }).waitFor();

    await page.getByRole('button', { name: /^Update outdated/ }).click();
    await statusOf(page, 'Alpha Core').filter({ hasText: 'installed' }).waitFor({ timeout: 60_000 });
    await page.getByText('Workshop download: done.').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /^Update outdated/ }).click();
    await page.getByRole('status').filter({ hasText: 'Nothing to update: every item is up to date.' }).waitFor();

    await page.getByRole('button', { name: 'Remove Bravo Maps' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await rowOf(page, 'Bravo Maps').waitFor({ state: 'detached' });

    // A collection, by its page's URL: its items come back.
    await ids.fill(`https://steamcommunity.com/sharedfiles/filedetails/?id=${COLLECTION}`);
    await page.getByLabel('It is a collection').check();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await statusOf(page, 'Bravo Maps').filter({ hasText: 'installed' }).waitFor({ timeout: 60_000 });
    assert.deepEqual(errors, []);
  });

  it("offers the Launcher preset's missing Workshop items for download", TIMEOUT, async () => {
    await page.goto(`${suite.g.url}/#/servers/${workshopServer}/mods`);
    await page.getByLabel('Load a Launcher preset').setInputFiles(PRESET);
    const diff = page.getByLabel("Preset compared with the server's mods");
    await diff.getByRole('button', { name: 'Download the 3 missing Workshop items' }).click();
    await diff.getByText('Workshop download: done.').waitFor({ timeout: 60_000 });
    // Compared again once downloaded: only the preset's local mod is missing any more.
    await diff.getByRole('button', { name: /missing Workshop item/ }).waitFor({ state: 'detached' });
    assert.match(await diff.innerText(), /: 3 installed, 1 missing/);
    const listed = (await api('GET', `/servers/${workshopServer}/workshop`)) as { workshop_id: string; status: string }[];
    for (const id of PRESET_ITEMS) assert.equal(listed.find((i) => i.workshop_id === id)?.status, 'installed', id);
    assert.deepEqual(errors, []);
  });

  it('says readably that a mod the running server has enabled cannot be removed; a viewer only reads the list', TIMEOUT, async () => {
    await api('PUT', `/servers/${workshopServer}/mods/enabled`, { mods: [{ name: '@charlie_sounds', is_server_mod: false }] });
    await api('POST', `/servers/${workshopServer}/start`);
    running = workshopServer;
    await waitFor(async () => (await api('GET', `/servers/${workshopServer}`)).status === 'running', {
      timeoutMs: 45_000,
      what: 'the fake game running',
    });
    await page.goto(`${suite.g.url}/#/servers/${workshopServer}/workshop`);
    await page.getByRole('button', { name: 'Remove Charlie Sounds' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Not removed: the running server has this mod enabled' });
    await refused.waitFor();
    assert.equal(await refused.locator('[data-code]').getAttribute('data-code'), 'MOD_IN_USE (HTTP 409)');
    await rowOf(page, 'Charlie Sounds').waitFor();
    assert.deepEqual(errors.splice(0), ['Failed to load resource: the server responded with a status of 409 (Conflict)']);

    const viewer = await suite.g.userToken('viewer');
    const { page: seen, errors: viewerErrors } = await suite.signedInPage(viewer);
    await seen.goto(`${suite.g.url}/#/servers/${workshopServer}/workshop`);
    await statusOf(seen, 'Charlie Sounds').waitFor();
    for (const control of ['Add', 'Check now', 'Remove Charlie Sounds']) {
      assert.equal(await seen.getByRole('button', { name: control, exact: true }).count(), 0, control);
    }
    assert.equal(await seen.getByLabel('Workshop ids or URLs').count(), 0);
    assert.equal(await seen.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Steam' }).count(), 0);
    assert.deepEqual(viewerErrors, []);
  });
});
