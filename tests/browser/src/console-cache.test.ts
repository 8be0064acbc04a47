import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * The console's addresses and its cache: a flag whose name holds a dot opens by its address and after a reload;
 * a strategy or tag type made on an administration page is offered at once by the flag page's pickers (one cache
 * entry per endpoint, which a change refreshes, instead of a copy under another key kept for a minute).
 */
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects/default/features', { name: 'checkout.new-flow', type: 'release' });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/features/checkout.new-flow');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('the console', () => {
  it('opens a flag whose name holds a dot by its address, and again after a reload', async () => {
    await page.getByRole('heading', { name: 'checkout.new-flow', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/default/features/checkout.new-flow');
    await page.reload();
    await page.getByRole('heading', { name: 'checkout.new-flow', level: 1 }).waitFor();
    await page.goto('/projects/default/features/checkout.new-flow/history');
    await page.getByRole('heading', { name: /History/, level: 1 }).waitFor();
    await screenshot(page, 'dotted-flag-history');
  });

  it('offers a strategy and a tag type made on the administration pages at once on the flag page', async () => {
    // The flag page first, so its pickers' lists are in the cache before anything new is made.
    await page.goto('/projects/default/features/checkout.new-flow');
    await page.getByRole('heading', { name: 'checkout.new-flow', level: 1 }).waitFor();
    const development = page.getByRole('region', { name: 'development' });
    await development.getByRole('button', { name: 'Add strategy in development' }).click();
    await page
      .getByRole('menuitem', { name: /Gradual rollout|flexibleRollout/ })
      .first()
      .waitFor();
    expect(await page.getByRole('menuitem', { name: 'shippingZone' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // Through the console's own navigation (no reload), so the cache the flag page read is the one changed.
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Strategies' }).click();
    await page.getByRole('button', { name: 'New strategy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('shippingZone');
    await dialog.getByRole('button', { name: 'Create strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Tag types' }).click();
    await page.getByRole('textbox', { name: 'New tag type' }).fill('team');
    await page.getByRole('button', { name: 'Create tag type' }).click();
    await page.getByRole('table', { name: 'Tag types' }).getByText('team', { exact: true }).waitFor();

    await page.goBack();
    await page.goBack();
    await page.goBack();
    await page.getByRole('heading', { name: 'checkout.new-flow', level: 1 }).waitFor();
    await development.getByRole('button', { name: 'Add strategy in development' }).click();
    await page.getByRole('menuitem', { name: 'shippingZone' }).waitFor({ timeout: 3000 });
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Tag type' }).click();
    await page.getByRole('option', { name: 'team', exact: true }).waitFor({ timeout: 3000 });
    await page.keyboard.press('Escape');
    await screenshot(page, 'dotted-flag');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
