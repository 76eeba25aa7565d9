import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { installFakeGameaTemp } from '@garrison/testkit';
import { startGarrison, type GarrisonOptions, type TestGarrison } from '@garrison/testkit/harness';

const CHROMIUM = process.env.GARRISON_TEST_CHROMIUM ?? '/usr/bin/chromium';
// No network on these machines: nothing may try to reach Google's hosts or download anything.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Debian's Chromium, headless; `.ci/run` installs it (apt-get install chromium). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the browser tests need Chromium at ${CHROMIUM}: apt-get install chromium (or set GARRISON_TEST_CHROMIUM)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 30_000 });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

/** A screenshot for the docs, at the page's current size. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** Fails the test with what the page logged, so that a console error is not lost. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

export async function signIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
}

/**
 * A page of a new browser context, signed in, with what it logs as errors. The context joins `contexts`,
 * which the suite's `after` closes.
 */
export async function signedInPage(
  browser: Browser,
  contexts: BrowserContext[],
  at: { url: string; username: string; password: string },
  options: BrowserContextOptions = { viewport: DESKTOP },
) {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, at.url, at.username, at.password);
  return { page, errors };
}

type FakeGame = Awaited<ReturnType<typeof installFakeGameaTemp>>;

export interface BrowserSuite {
  /** The service (started in the suite's `before`). */
  readonly g: TestGarrison;
  readonly browser: Browser;
  /** The fake game's installation, with `fakeGame: true`. */
  readonly fake: FakeGame;
  /** Every context the tests opened: the suite's `after` closes them. */
  readonly contexts: BrowserContext[];
  /** A new context, closed with the suite. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page of a new context, signed in (as the admin unless told), with what it logs as errors. */
  signedInPage(who?: { username: string; password: string }, options?: BrowserContextOptions): Promise<{ page: Page; errors: string[] }>;
}

export interface BrowserSuiteOptions {
  garrison?: GarrisonOptions;
  /** A fake game installed for the suite's servers, removed after. */
  fakeGame?: boolean;
  /** The set-up's time: the service, Chromium and `setUp` (a game's start is slow on a busy machine). */
  setUpTimeoutMs?: number;
  /** More set-up once the service and Chromium are up (a server created, started). */
  setUp?: (suite: BrowserSuite) => Promise<void>;
  /** Before the service closes, when it started (a game killed). */
  beforeClose?: (suite: BrowserSuite) => Promise<void>;
}

/**
 * A browser test suite's set-up, registered in the calling `describe`: the service on a random port
 * (and a fake game when asked), Chromium, and at the end every context, Chromium, the service and the
 * fake game closed, each even when an earlier one failed to start.
 */
export function browserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let g: TestGarrison | undefined;
  let browser: Browser | undefined;
  let fake: FakeGame | undefined;
  const started = <T>(part: T | undefined, name: string): T => {
    if (part === undefined) throw new Error(`the suite's ${name} is not started: used outside a test, or its set-up failed`);
    return part;
  };
  const contexts: BrowserContext[] = [];
  const suite: BrowserSuite = {
    get g() {
      return started(g, 'service');
    },
    get browser() {
      return started(browser, 'browser');
    },
    get fake() {
      return started(fake, 'fake game');
    },
    contexts,
    async newContext(contextOptions = { viewport: DESKTOP }) {
      const context = await suite.browser.newContext(contextOptions);
      contexts.push(context);
      return context;
    },
    signedInPage(who = { username: 'admin', password: suite.g.adminPassword }, contextOptions = { viewport: DESKTOP }) {
      return signedInPage(suite.browser, contexts, { url: suite.g.url, ...who }, contextOptions);
    },
  };
  before(
    async () => {
      if (options.fakeGame) fake = await installFakeGameaTemp();
      g = await startGarrison(options.garrison ?? {});
      browser = await launchChromium();
      await options.setUp?.(suite);
    },
    { timeout: options.setUpTimeoutMs ?? 60_000 },
  );
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    try {
      if (g) await options.beforeClose?.(suite);
    } finally {
      await g?.close();
      await fake?.remove();
    }
  });
  return suite;
}
