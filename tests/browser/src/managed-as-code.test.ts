import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * A project managed as code as its team meets it: turned on in the project's settings, then every page of the project
 * says where its files are, and a change tried by hand is refused with that same pointer.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/service-account', { username: 'flags-ci', name: 'Flags CI', rootRole: 'Editor' });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'checkout', description: 'The checkout' });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/settings/code');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('managed as code in the console', () => {
  it('is turned on in the project settings and shown on every page of the project, where hand edits are refused', async () => {
    await page.getByRole('heading', { name: 'Managed as code', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Manage this project as code' }).click({ force: true });
    await page.getByLabel('Repository').fill('github.com/acme/flags');
    await page.getByLabel('Path').fill('flags/default.yaml');
    await page.getByLabel("Pipeline's service account").selectOption({ label: 'Flags CI' });
    await page.getByRole('button', { name: 'Save' }).click();
    const notice = page.getByRole('status', { name: 'Managed as code' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('managed as code in github.com/acme/flags at flags/default.yaml');
    expect(await notice.getByRole('link', { name: 'github.com/acme/flags' }).getAttribute('href')).toBe(
      'https://github.com/acme/flags',
    );
    await screenshot(page, 'managed-as-code-settings');
    expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');

    await page.goto('/projects/default');
    await page.getByRole('status', { name: 'Managed as code' }).waitFor();
    await page.goto('/projects/default/features/checkout');
    await page.getByRole('heading', { name: 'checkout', level: 1 }).waitFor();
    await page.getByRole('status', { name: 'Managed as code' }).waitFor();
    await screenshot(page, 'managed-as-code-flag');
    expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');
    await page.getByRole('switch', { name: 'Enabled in development' }).click();
    await page
      .getByText(/is managed as code in github.com\/acme\/flags \(flags\/default.yaml\): change its files there/)
      .waitFor();
    await screenshot(page, 'managed-as-code-refused');
    const flag = await stack.admin.get('/api/admin/projects/default/features/checkout');
    expect(
      flag.body.environments.find((environment: { name: string }) => environment.name === 'development').enabled,
    ).toBe(false);
    expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');
  });
});
