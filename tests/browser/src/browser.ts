import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium: `.ci/run` installs it when missing (the bundled browsers cannot be downloaded here). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  // Root has no user namespace sandbox here; the browser only ever visits the stack the test started.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A fresh browser profile (its own cookies) on the stack's address. */
export async function openPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  // Generous: the full suite runs many stacks at once on two cores, and a page then takes seconds to answer.
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  return page;
}

export async function signIn(page: Page, username: string, password: string) {
  await page.getByRole('heading', { name: 'Sign in to Bunting' }).waitFor();
  await page.getByLabel('User name or email').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Saves what the page looks like to tests/browser/screenshots (git-ignored), for people to look at. */
export async function screenshot(page: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousViolations(
  page: Page,
): Promise<{ id: string; impact: string; help: string; targets: string[] }[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact!,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}
