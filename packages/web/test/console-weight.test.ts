import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { browserSuite, collectPageErrors, DESKTOP, signIn } from './browser.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/console-weight.mjs', import.meta.url));
const BUDGET_KB = 60;

interface Weight {
  firstLoad: { file: string; bytes: number; gzip: number }[];
  firstLoadGzip: number;
  later: { file: string; gzip: number }[];
}

const weigh = (): Weight => JSON.parse(execFileSync(process.execPath, [SCRIPT, '--json'], { encoding: 'utf8' })) as Weight;

// The console's first download stays within its budget (web README, Bundle size): a size, measured on the
// built files by the script the README quotes, and checked against what a browser really fetches.
describe('the console first load', () => {
  const suite = browserSuite({ garrison: { adminPassword: 'admin-password-1' } });

  it(`is at most ${BUDGET_KB} kB gzipped, with the rarely used pages and the QR code library left out`, () => {
    const weight = weigh();
    assert.ok(
      weight.firstLoadGzip <= BUDGET_KB * 1000,
      `the first load is ${(weight.firstLoadGzip / 1000).toFixed(1)} kB gzipped, over ${BUDGET_KB} kB`,
    );
    const first = weight.firstLoad.map((f) => f.file);
    for (const page of ['qrcode', 'two-factor', 'api-keys', 'import-server', 'notifications', 'nodes']) {
      assert.ok(!first.some((file) => file.startsWith(`assets/${page}-`)), `${page} is not in the first load`);
      assert.ok(
        weight.later.some((f) => f.file.startsWith(`assets/${page}-`)),
        `${page} is a chunk of its own`,
      );
    }
    const over = spawnSync(process.execPath, [SCRIPT, '--max', String(weight.firstLoadGzip / 1000 - 0.1)], { encoding: 'utf8' });
    assert.equal(over.status, 1, 'the script fails a budget the first load passes');
    assert.match(over.stderr, /over the .* kB budget/);
  });

  it(
    'is what a browser fetches to sign in and see the dashboard, and a page opened later loads its chunk under the CSP',
    { timeout: 120_000 },
    async () => {
      const { g } = suite;
      const context = await suite.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const fetched: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.origin === new URL(g.url).origin && !url.pathname.startsWith('/api') && !url.pathname.startsWith('/ws'))
          fetched.push(url.pathname === '/' ? 'index.html' : url.pathname.slice(1));
      });
      await signIn(page, g.url, 'admin', 'admin-password-1');
      assert.deepEqual(
        [...new Set(fetched)].sort(),
        weigh()
          .firstLoad.map((f) => f.file)
          .sort(),
        'the script counts exactly what the browser fetched',
      );

      await page.getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      assert.ok(
        fetched.some((file) => /^assets\/notifications-[\w-]+\.js$/.test(file)),
        'the page came as its own chunk',
      );
      assert.deepEqual(errors, [], 'no CSP refusal or other error');
    },
  );
});
