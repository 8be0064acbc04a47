import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * A security engineer's pages: an audit integration that streams the log (and says when its receiver is away), and
 * the sign-in history with its filters and CSV export.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      AUDIT_DELIVERY_TICK_MS: '200',
      AUDIT_DELIVERY_MAX_RETRY_MS: '1000',
      AUDIT_DELIVERY_UNHEALTHY_AFTER_MS: '500',
    },
  });
  await stack.admin.post('/api/admin/user-admin', {
    username: 'dana',
    email: 'dana@example.com',
    password: 'a-long-password',
    rootRole: 'Editor',
  });
  const visitor = httpClient(stack.url, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' });
  await visitor.post('/auth/simple/login', { username: 'dana', password: 'a-long-password' });
  await visitor.post('/auth/simple/login', { username: 'dana', password: 'guessing-wrong' });
  await visitor.post('/auth/simple/login', { username: 'root', password: 'letmein-please' });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/admin/integrations');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

it('adds a Splunk destination for every event, and says plainly that its receiver is away', async () => {
  await page.getByRole('button', { name: 'New integration' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Service').selectOption({ label: 'Splunk (HTTP Event Collector)' });
  await dialog.getByLabel('HEC address').fill('http://127.0.0.1:9/');
  await dialog.getByLabel('HEC token').fill('hec-secret-token');
  await dialog.getByText('None chosen: every event, the whole audit log').waitFor();
  await dialog.getByRole('button', { name: 'Save integration' }).click();
  await dialog.waitFor({ state: 'detached' });
  const row = page.getByRole('row', { name: /127\.0\.0\.1:9/ });
  await row.getByText('All events').waitFor();
  // Something to deliver, to a port where nothing listens.
  await stack.admin.post('/api/admin/projects/default/features', { name: 'audited-flag' });
  await row.getByText('Failing').waitFor({ timeout: 20_000 });
  await row.getByRole('button', { name: 'http://127.0.0.1:9/', exact: true }).first().click();
  await page.getByText(/Failing since .* tries\): Splunk HEC could not be reached/).waitFor();
  await page.getByText(/waiting; the oldest is/).waitFor();
  await page.getByRole('button', { name: 'Replay' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'audit-destination-failing');
  expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');
  await page.getByRole('button', { name: 'Replay' }).click();
  await page.getByText('Delivering again from that time').waitFor();
  await page.getByRole('button', { name: 'Done' }).click();
});

it('shows the sign-in history in words, filters it, and offers it as CSV', async () => {
  await page.getByRole('tab', { name: 'Sign-in history' }).click();
  await page.getByRole('heading', { name: 'Sign-in history' }).waitFor();
  const table = page.getByRole('table', { name: 'Sign-in history' });
  await table.getByText('Sign-in refused').first().waitFor();
  const text = await table.textContent();
  expect(text).toContain('Signed in');
  expect(text).toContain('no such account');
  expect(text).toContain('Firefox/133.0');
  await screenshot(page, 'sign-in-history');
  expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');

  await page.getByRole('textbox', { name: 'User' }).fill('dana');
  await page.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: 'Failed' }).click();
  await eventually(async () => (await table.getByRole('row').count()) === 2);
  expect(await table.getByRole('row').nth(1).textContent()).toContain('Wrong password or username.');
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  expect(href).toBe('/api/admin/access-history/export?user=dana&outcome=failure');
  const csv = await page.evaluate(async (address) => (await fetch(address)).text(), href!);
  expect(csv.trim().split('\r\n')).toHaveLength(2);
});
