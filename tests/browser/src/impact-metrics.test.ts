import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * Impact metrics in the console: a chart of a metric an application sent, added to a flag's page and kept there,
 * and the metrics explorer. The chart's numbers are read from the table beside it, which screen readers read too.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;
const clientToken = 'default:development.impact-browser';

/** The values in a chart's data table, by its title. */
async function chartValues(title: string): Promise<number[]> {
  const cells = await page
    .getByRole('table', { name: `${title} data` })
    .locator('tbody tr td:nth-child(2)')
    .allTextContents();
  return cells.filter((cell) => cell !== '').map(Number);
}

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'new-checkout', type: 'release' });
  const client = httpClient(stack.url, { authorization: clientToken });
  const post = (value: number, region: string) =>
    client.post('/api/client/metrics', {
      appName: 'shop',
      bucket: { start: 0, stop: 0, toggles: {} },
      impactMetrics: [
        {
          name: 'checkout_errors',
          help: 'Checkouts that failed',
          type: 'counter',
          samples: [{ labels: { region }, value }],
        },
      ],
    });
  expect((await post(4, 'eu')).status).toBe(202);
  expect((await post(3, 'us')).status).toBe(202);
  await eventually(async () => (await stack.admin.get('/api/admin/impact-metrics/metadata')).body.metrics.length > 0);
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/features/new-checkout');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('impact metrics in the console', () => {
  it("adds a chart of an application's metric to the flag's page, filtered by a label, and keeps it there", async () => {
    await page.getByRole('heading', { name: 'new-checkout', level: 1 }).waitFor();
    await page.getByText('No charts yet').waitFor();
    await page.getByRole('button', { name: 'Add chart' }).click();
    const dialog = page.getByRole('dialog', { name: 'New chart' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Checkout errors');
    await dialog.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByRole('option', { name: 'checkout_errors (counter)' }).click();
    await dialog.getByText('Hour', { exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Aggregation' }).selectOption('count');
    await dialog.getByRole('combobox', { name: 'Only where region is' }).click();
    await page.getByRole('option', { name: 'eu' }).click();
    // Closes the values' list without closing the dialog.
    await dialog.getByRole('textbox', { name: 'Title' }).click();
    await dialog.getByRole('button', { name: 'Save chart' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('img', { name: 'Checkout errors' }).waitFor();
    // Only the eu series: 4 errors in the hour, the rest of its minutes at 0.
    await expect
      .poll(async () => (await chartValues('Checkout errors')).reduce((sum, value) => sum + value, 0))
      .toBe(4);
    const saved = (await stack.admin.get('/api/admin/projects/default/features/new-checkout/impact-metrics/config'))
      .body.configs;
    expect(saved).toEqual([
      expect.objectContaining({
        title: 'Checkout errors',
        metricName: 'unleash_counter_checkout_errors',
        timeRange: 'hour',
        aggregationMode: 'count',
        labelSelectors: { region: ['eu'] },
      }),
    ]);
    await screenshot(page, 'flag-impact-chart');
    expect(await seriousViolations(page)).toEqual([]);

    await page.reload();
    await page.getByRole('img', { name: 'Checkout errors' }).waitFor();
  });

  it('draws any metric in the explorer, every series summed unless filtered', async () => {
    await page.getByRole('link', { name: 'Impact metrics', exact: true }).click();
    await page.getByRole('heading', { name: 'Impact metrics', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByRole('option', { name: 'checkout_errors (counter)' }).click();
    await page.getByRole('img', { name: 'checkout_errors' }).waitFor();
    await expect
      .poll(async () => (await chartValues('checkout_errors')).reduce((sum, value) => sum + value, 0))
      .toBe(7);
    await page.getByRole('form', { name: 'External source' }).waitFor();
    await screenshot(page, 'impact-metrics-explorer');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
