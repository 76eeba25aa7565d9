import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts, waitFor } from '@garrison/testkit';
import type { Page } from 'playwright-core';
import { browserSuite } from './browser.js';

// Secrets in the config editor, "Restart needed" that follows the game's process, the Processes table's
// live figures, and who a player is (GUID, address) for admins.
describe('config secrets, restart needed, live process figures and player details in a real Chromium', () => {
  let serverId: number;
  const suite = browserSuite({
    // Figures every second: the Processes table must follow them without reading the list again.
    garrison: { stopTimeoutMs: 3000, readyTimeoutMs: 90_000, metricsIntervalMs: 1000 },
    fakeGame: true,
    setUpTimeoutMs: 150_000,
    setUp: async ({ g: h, fake }) => {
      const created = await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'Night Ops', exe_path: fake.exePath, ...(await freeGamePorts()), headless_clients: 1 },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      serverId = created.body.data.id;
      assert.equal((await h.api('POST', `/servers/${serverId}/start`, { token: h.adminToken })).status, 200);
      await waitFor(
        async () => {
          const list = (await h.api('GET', `/servers/${serverId}/processes`, { token: h.adminToken })).body.data as { status: string }[];
          return list.length === 2 && list.every((p) => p.status === 'running');
        },
        { timeoutMs: 90_000, intervalMs: 1_000, what: 'the server and its headless client running' },
      );
    },
    beforeClose: async ({ g: h }) => {
      await h.api('POST', `/servers/${serverId}/kill`, { token: (await h.userToken('admin')).token });
    },
  });

  let token: string;
  beforeEach(async () => {
    token = (await suite.g.userToken('admin')).token;
  });
  const api = (method: string, path: string, body?: unknown) => suite.g.api(method, path, { token, body });

  const open = async (tab: string, who: 'admin' | 'viewer' = 'admin', prepare?: (page: Page) => Promise<unknown>) => {
    const user = who === 'admin' ? { username: 'admin', password: suite.g.adminPassword } : await suite.g.userToken('viewer');
    const { page, errors } = await suite.signedInPage({ username: user.username, password: user.password });
    await prepare?.(page);
    await page.goto(`${suite.g.url}/#/servers/${serverId}/${tab}`);
    await page.getByRole('heading', { name: 'Night Ops' }).waitFor();
    return { page, errors };
  };

  it(
    'says "Not set" of an empty secret, and clears a set one with Clear (saved, audited), but never the RCon password',
    { timeout: 90_000 },
    async () => {
      const { page, errors } = await open('config');
      const join = page.getByLabel('Join password', { exact: true });
      await join.waitFor();
      // Both read `***`; only the admin password (generated at creation) is set.
      assert.equal(await join.getAttribute('placeholder'), 'Not set');
      assert.equal(await page.getByLabel('Admin password', { exact: true }).getAttribute('placeholder'), 'Set (type to replace)');
      assert.equal(await page.getByRole('button', { name: 'Clear Join password' }).count(), 0, 'nothing to clear');
      await page.getByRole('button', { name: 'Clear Admin password' }).waitFor();

      await join.fill('letmein');
      await page.getByRole('button', { name: 'Save Server' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await waitFor(async () => (await join.getAttribute('placeholder')) === 'Set (type to replace)', {
        timeoutMs: 10_000,
        what: 'the join password set',
      });

      // Cleared: the field says so, Save is offered (it was disabled for an emptied field before), and saving empties it.
      await page.getByRole('button', { name: 'Clear Join password' }).click();
      assert.equal(await join.getAttribute('placeholder'), 'Cleared when saved');
      await page.getByRole('button', { name: 'Save Server' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await waitFor(async () => (await join.getAttribute('placeholder')) === 'Not set', {
        timeoutMs: 10_000,
        what: 'the join password cleared',
      });
      const section = (await api('GET', `/servers/${serverId}/config/server`)).body.data;
      assert.equal(section.password, '***');
      assert.equal(section._meta.secrets_set.password, false);
      const preview = (await api('GET', `/servers/${serverId}/config/preview`)).body.data['server.cfg'] as string;
      assert.match(preview, /^password = "";$/m);
      const trail = (await api('GET', `/servers/${serverId}/events?event_type=config_changed`)).body.data.events as {
        detail: { fields: string[] };
      }[];
      assert.deepEqual(
        trail.slice(0, 2).map((e) => e.detail.fields),
        [['password'], ['password']],
        'both saves audited, by field name',
      );

      // The RCon password is Garrison's way into the game: replaced, never cleared.
      await page.getByRole('tab', { name: 'Rcon' }).click();
      await page.getByLabel('RCon password', { exact: true }).waitFor();
      assert.equal(await page.getByLabel('RCon password', { exact: true }).getAttribute('placeholder'), 'Set (type to replace)');
      assert.equal(await page.getByRole('button', { name: 'Clear RCon password' }).count(), 0);
      assert.deepEqual(errors, []);
    },
  );

  it("shows each player's GUID and IP to an admin, and neither to a viewer", { timeout: 90_000 }, async () => {
    const GUID = 'fedcba9876543210fedcba9876543210';
    const admin = await open('players');
    const viewer = await open('players', 'viewer');
    await api('POST', `/servers/${serverId}/rcon/command`, { command: `testkit.join Grace ${GUID} 10.0.0.77` });
    const row = admin.page
      .getByRole('table', { name: /Players on/ })
      .getByRole('row')
      .filter({ hasText: 'Grace' });
    await row.getByText(GUID).waitFor({ timeout: 30_000 });
    await row.getByText('10.0.0.77').waitFor();
    const seen = viewer.page
      .getByRole('table', { name: /Players on/ })
      .getByRole('row')
      .filter({ hasText: 'Grace' });
    await seen.waitFor({ timeout: 30_000 });
    const live = viewer.page.getByRole('table', { name: /Players on/ });
    assert.equal(await live.getByRole('columnheader', { name: 'GUID' }).count(), 0);
    assert.equal(await live.getByText(GUID).count(), 0, "the live list's GUID (the history shows it to every role, as the contract says)");
    assert.equal(await viewer.page.getByText('10.0.0.77').count(), 0, "no address anywhere on a viewer's page");
    assert.deepEqual([...admin.errors, ...viewer.errors], []);
  });

  it(
    "keeps the Processes table's CPU and memory live, from the metrics events, without reading the list again",
    { timeout: 90_000 },
    async () => {
      // Every read of the processes list answers figures no process has: only live figures can replace them.
      let reads = 0;
      const { page, errors } = await open('console', 'admin', (p) =>
        p.route(`**/api/servers/${serverId}/processes`, async (route) => {
          reads += 1;
          const response = await route.fetch();
          const body = (await response.json()) as { data: { cpu_percent: number | null; ram_mb: number | null }[] };
          for (const p of body.data) Object.assign(p, { cpu_percent: 99.9, ram_mb: 1 });
          await route.fulfill({ response, json: body });
        }),
      );
      const headless = page.getByTestId('process-headless-1');
      const server = page.getByTestId('process-server-0');
      // (The first live figures may already have replaced the read's: only that it was read is waited for.)
      await headless.waitFor({ timeout: 30_000 });
      await waitFor(async () => reads >= 1, { timeoutMs: 10_000, what: 'the processes list read' });
      // The sampled figures come in (an idle fake: its CPU is far below 99.9 %, its memory above 1 MB).
      for (const row of [server, headless]) {
        await waitFor(
          async () => {
            const [cpu, memory] = [await row.locator('td').nth(4).textContent(), await row.locator('td').nth(5).textContent()];
            return cpu !== '99.9 %' && memory !== '1 MB' && /^\d+ MB$/.test(memory ?? '');
          },
          { timeoutMs: 20_000, what: 'live figures in the Processes table' },
        );
      }
      // A read still being rewritten when the page closes would reject after the test ended.
      await page.unrouteAll({ behavior: 'wait' });
      assert.deepEqual(errors, []);
    },
  );

  it(
    'shows "Restart needed" while the running game has an older config, and drops it at the restart and on a stopped server, live',
    { timeout: 150_000 },
    async () => {
      const { g: h } = suite;
      // What the tests before changed is taken up first: the game runs with the config as it is.
      assert.equal((await api('POST', `/servers/${serverId}/restart`)).status, 200);
      await waitFor(
        async () => {
          const record = (await api('GET', `/servers/${serverId}`)).body.data;
          return record.status === 'running' && record.warnings.length === 0;
        },
        { timeoutMs: 90_000, intervalMs: 1_000, what: 'the server running with its current config' },
      );
      const { page, errors } = await open('console');
      const dashboard = await suite.signedInPage({ username: 'admin', password: h.adminPassword });
      const badge = page.locator('[data-warning="restart_needed"]');
      const attention = dashboard.page.getByTestId('total-attention');
      const change = async (maxPlayers: number) => {
        const section = (await api('GET', `/servers/${serverId}/config/server`)).body.data;
        assert.equal(
          (
            await api('PUT', `/servers/${serverId}/config/server`, {
              max_players: maxPlayers,
              config_version: section._meta.config_version,
            })
          ).status,
          200,
        );
        await badge.waitFor({ timeout: 20_000 });
        await waitFor(async () => (await attention.textContent()) === '1', { timeoutMs: 20_000, what: 'the dashboard counting it' });
      };
      await attention.waitFor();
      assert.equal(await attention.textContent(), '0');

      await change(41);
      assert.equal((await api('POST', `/servers/${serverId}/restart`)).status, 200);
      await badge.waitFor({ state: 'detached', timeout: 30_000 });
      await waitFor(async () => (await attention.textContent()) === '0', {
        timeoutMs: 20_000,
        what: 'the dashboard no longer counting it',
      });
      await page.locator('.server-page').getByText('running', { exact: true }).first().waitFor({ timeout: 90_000 });
      assert.equal(await badge.count(), 0, 'not back once the new process runs');

      await change(42);
      assert.equal((await api('POST', `/servers/${serverId}/stop`)).status, 200);
      await badge.waitFor({ state: 'detached', timeout: 30_000 });
      await waitFor(async () => (await attention.textContent()) === '0', { timeoutMs: 20_000, what: 'a stopped server not counted' });
      assert.deepEqual([...errors, ...dashboard.errors], []);
    },
  );
});
