import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

const CHROMIUM = process.env.GARRISON_TEST_CHROMIUM ?? '/usr/bin/chromium';
// No network on these machines: nothing may try to reach Google's hosts or download anything.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

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
export async function signedInPage(browser: Browser, contexts: BrowserContext[], at: { url: string; username: string; password: string }, options: BrowserContextOptions = { viewport: DESKTOP }) {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, at.url, at.username, at.password);
  return { page, errors };
}
