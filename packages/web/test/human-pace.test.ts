import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, Page } from 'playwright-core';
import { collectPageErrors, DESKTOP, launchChromium, signIn } from './browser.js';

const TABS = [
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

/** Every request the page makes to the API, and every answer it got that was a 429. */
function watchApi(page: Page) {
  const seen = { requests: [] as string[], refused: [] as string[] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) seen.requests.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  page.on('response', (response) => {
    if (response.status() === 429) seen.refused.push(response.url());
  });
  return seen;
}

// The default rate limit (60 requests a minute per token) is on, as a deployer has it.
describe('the console at a person’s pace, within the default rate limit', () => {
  let h: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  const ids: number[] = [];

  before(
    async () => {
      fake = await installFakeGameaTemp();
      h = await startGarrison({ rateLimit: 60, readyTimeoutMs: 90_000, stopTimeoutMs: 3000 });
      browser = await launchChromium();
      for (const name of ['Alpha Ops', 'Bravo Ops']) {
        const created = await h.api('POST', '/servers', {
          token: h.adminToken,
          body: { name, exe_path: fake.exePath, ...(await freeGamePorts()) },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        ids.push(created.body.data.id);
      }
      // One of them running, so that live events (status, log lines, metrics, players) come as they would.
      assert.equal((await h.api('POST', `/servers/${ids[0]}/start`, { token: h.adminToken })).status, 200);
    },
    { timeout: 120_000 },
  );
  after(async () => {
    await browser?.close();
    if (h) {
      await h.api('POST', `/servers/${ids[0]}/kill`, { token: (await h.userToken('admin')).token });
      await h.close();
    }
    await fake?.remove();
  });

  /** A fresh browser session, signed in as the admin, with its API requests and page errors watched. */
  const session = async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const api = watchApi(page);
    await signIn(page, h.url, 'admin', h.adminPassword);
    return { context, page, errors, api };
  };

  it('clicks through every tab of two servers and back once a second for 3 minutes without a 429', { timeout: 300_000 }, async () => {
    const { context, page, errors, api } = await session();
    try {
      // Dashboard → a server → each of its tabs → back to the dashboard → the other server → …
      const steps: { what: string; click: () => Promise<void> }[] = [];
      for (const name of ['Alpha Ops', 'Bravo Ops']) {
        steps.push({ what: name, click: () => page.getByRole('link', { name }).click() });
        for (const tab of TABS)
          steps.push({
            what: `${name} ${tab}`,
            click: () => page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name: tab, exact: true }).click(),
          });
        steps.push({
          what: 'dashboard',
          click: () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Servers' }).click(),
        });
      }
      const started = Date.now();
      let clicks = 0;
      while (Date.now() - started < 180_000) {
        const step = steps[clicks % steps.length];
        const next = started + (clicks + 1) * 1000;
        await step.click();
        clicks += 1;
        // A person's pace: the next click a second after this one (the pace is what is tested, not a wait for readiness).
        await page.waitForTimeout(Math.max(0, next - Date.now()));
        const shown = await page.getByRole('alert').allInnerTexts();
        assert.ok(
          !shown.some((text) => /too many requests|slow down/i.test(text)),
          `after "${step.what}" (click ${clicks}) the page said: ${shown.join(' | ')}`,
        );
      }
      assert.deepEqual(api.refused, [], 'no request was refused');
      assert.ok(clicks >= 170, `${clicks} clicks`);
      // Every tab was shown with its data at least once (a cached tab shows it at once).
      assert.ok(!(await page.getByText('Loading…').count()), 'the last tab finished loading');
      assert.deepEqual(errors, []);
      console.log(`# ${clicks} clicks in 3 minutes made ${api.requests.length} API requests`);
    } finally {
      await context.close();
    }
  });

  it(
    'shows a tab again from the cache without a request, and reads it again when a live event says it changed',
    { timeout: 120_000 },
    async () => {
      const { context, page, errors, api } = await session();
      try {
        // The live connection first: a read begun before it connects is read again once it has (it may have
        // missed an event meanwhile), which would make the count below depend on which came first.
        await page.goto(`${h.url}/#/servers/${ids[1]}/console`);
        await page.getByRole('heading', { name: 'Bravo Ops' }).waitFor();
        await waitFor(() => h.server.webSocketStats().clients === 1, { timeoutMs: 20_000, what: "this page's live connection alone" });
        const tab = (name: string) => page.getByRole('navigation', { name: 'Server sections' }).getByRole('link', { name, exact: true });
        await tab('Bans').click();
        await waitFor(() => api.requests.some((r) => r.includes(`/servers/${ids[1]}/bans`)), { timeoutMs: 20_000, what: 'the bans read' });
        await page.getByText('No bans').first().waitFor();

        // Away and back, nothing changed: shown from the cache, no second read.
        await tab('Missions').click();
        await page.getByRole('heading', { name: 'Files' }).waitFor();
        await tab('Bans').click();
        await page.getByText('No bans').first().waitFor();
        const bansReads = () => api.requests.filter((r) => r.startsWith('GET') && r.includes(`/servers/${ids[1]}/bans`)).length;
        assert.equal(bansReads(), 1, api.requests.join('\n'));

        // A ban made elsewhere (another session): the audit event over the WebSocket makes the shown tab read again.
        const other = (await h.userToken('admin')).token;
        const uid = 'b'.repeat(32);
        assert.equal(
          (
            await h.api('POST', `/servers/${ids[1]}/bans`, {
              token: other,
              body: { player_uid: uid, reason: 'griefing at base', duration_minutes: 0 },
            })
          ).status,
          201,
        );
        await page.getByText('griefing at base').waitFor({ timeout: 20_000 });
        assert.equal(bansReads(), 2);

        // Changed while the tab was not shown: marked out of date, read again when it is shown next.
        await tab('Mods').click();
        await page.getByText(/No mod folders/).waitFor();
        const ban = (await h.api('GET', `/servers/${ids[1]}/bans`, { token: other })).body.data[0];
        assert.equal((await h.api('DELETE', `/servers/${ids[1]}/bans/${ban.id}`, { token: other })).status, 200);
        await waitFor(
          async () => (await h.api('GET', `/servers/${ids[1]}/events?event_type=unban`, { token: other })).body.data.total === 1,
          { timeoutMs: 20_000, what: 'the unban recorded' },
        );
        await tab('Bans').click();
        await waitFor(() => bansReads() === 3, { timeoutMs: 20_000, what: 'the bans read again' });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    },
  );
});
