import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sql } from '@bunting/platform';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * An experiment in the console: started on a flag's two variants from its page, its results read in words, figures
 * and a chart once SDKs report green selling more than blue, and stopped keeping green.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;
let client: HttpClient;
const clientToken = 'default:development.experiment-browser';
const frontendToken = 'default:development.experiment-browser-web';
const flagApi = '/api/admin/projects/default/features/checkout-colour';

/** What an SDK reports: exposures per variant and checkouts labelled with the variant each user saw. */
const report = (variants: { blue: number; green: number }, checkouts: { blue: number; green: number }) =>
  client.post('/api/client/metrics', {
    appName: 'shop',
    bucket: {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { 'checkout-colour': { yes: variants.blue + variants.green, no: 0, variants } },
    },
    impactMetrics: [
      {
        name: 'checkouts',
        help: 'Checkouts completed',
        type: 'counter',
        samples: [
          { labels: { 'checkout-colour': 'blue' }, value: checkouts.blue },
          { labels: { 'checkout-colour': 'green' }, value: checkouts.green },
        ],
      },
    ],
  });
const expectAccessible = async (where: string) => expect(await seriousViolations(page), where).toEqual([]);

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, INIT_FRONTEND_API_TOKENS: frontendToken },
  });
  client = httpClient(stack.url, { authorization: clientToken });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'checkout-colour', type: 'experiment' });
  await stack.admin.put(`${flagApi}/environments/development/variants`, [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
  ]);
  await stack.admin.post(`${flagApi}/environments/development/on`);
  expect((await report({ blue: 0, green: 0 }, { blue: 0, green: 0 })).status).toBe(202);
  await eventually(async () => (await stack.admin.get('/api/admin/impact-metrics/metadata')).body.metrics.length > 0);
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/features/checkout-colour');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('an experiment in the console', () => {
  it('is started from the flag page on its variants', async () => {
    await page.getByRole('link', { name: 'Experiments' }).click();
    await page.getByRole('heading', { name: 'Experiments on checkout-colour' }).waitFor();
    await page.getByRole('button', { name: 'Start experiment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start an experiment on checkout-colour' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Green checkout button');
    await dialog.getByRole('textbox', { name: 'Hypothesis' }).fill('A green button sells more');
    await dialog.getByRole('combobox', { name: 'Control variant' }).selectOption('blue');
    await dialog.getByRole('combobox', { name: 'Primary metric' }).selectOption('checkouts');
    await screenshot(page, 'experiment-start');
    await expectAccessible('the start form');
    await dialog.getByRole('button', { name: 'Start experiment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('region', { name: 'Green checkout button' }).getByText('running').waitFor();
    const [started] = (await stack.admin.get(`${flagApi}/experiments`)).body.experiments;
    expect(started).toMatchObject({ controlVariant: 'blue', metrics: [{ metricName: 'checkouts', role: 'primary' }] });
  });

  it('reads green beating blue in words, figures and a chart', async () => {
    expect((await report({ blue: 2000, green: 2000 }, { blue: 400, green: 600 })).status).toBe(202);
    const experiment = page.getByRole('region', { name: 'Green checkout button' });
    // The page asks again every 15 s; a reload shows the new figures at once.
    await eventually(
      async () => {
        await page.reload();
        await experiment.getByText('What the results say now').waitFor();
        return (await experiment.getByText('green beats the control on the primary metric.').count()) > 0;
      },
      { timeoutMs: 30_000, intervalMs: 1000 },
    );
    const table = experiment.getByRole('table', { name: 'Results on checkouts' });
    await table.getByRole('cell', { name: 'blue (control)' }).waitFor();
    await table.getByRole('cell', { name: '0.3', exact: true }).waitFor();
    await table.getByRole('cell', { name: /^\+50 % \(likely between/ }).waitFor();
    await experiment.getByText(/^green is better on checkouts: 50 % higher than the control, beyond chance/).waitFor();
    await experiment.getByRole('img', { name: 'checkouts: difference from blue over time' }).waitFor();
    await screenshot(page, 'experiment-results');
    await expectAccessible('experiment results');
  }, 60_000);

  it('is stopped keeping green', async () => {
    await page.getByRole('button', { name: 'Stop experiment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop Green checkout button' });
    await dialog.getByRole('combobox', { name: 'Decision' }).selectOption('green');
    await dialog.getByRole('textbox', { name: 'Why' }).fill('Sells more');
    await dialog.getByRole('button', { name: 'Stop experiment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const experiment = page.getByRole('region', { name: 'Green checkout button' });
    await experiment.getByText(/decided: keep green/).waitFor();
    await screenshot(page, 'experiment-stopped');
    const [stopped] = (await stack.admin.get(`${flagApi}/experiments`)).body.experiments;
    expect(stopped.decision).toEqual({ outcome: 'kept', keptVariant: 'green', reason: 'Sells more' });
  });

  it('counts users from tracked outcomes, adjusted for what they did the week before', async () => {
    await page.getByRole('button', { name: 'Start experiment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start an experiment on checkout-colour' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Green for spenders');
    await dialog.getByRole('combobox', { name: 'Control variant' }).selectOption('blue');
    await dialog.getByRole('combobox', { name: 'Count' }).selectOption('tracked');
    await dialog.getByRole('textbox', { name: 'Tracked event' }).fill('spend');
    await screenshot(page, 'experiment-start-tracked');
    await expectAccessible('the start form, tracked');
    await dialog.getByRole('button', { name: 'Start experiment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const experiment = page.getByRole('region', { name: 'Green for spenders' });
    await experiment.getByText('running').waitFor();

    // The week before is written as insights keeps it (a test cannot wait a week); then 300 shoppers are answered
    // and spend about what they spent before, green adding 2.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = (user: number) => 10 + (user % 7) * 15;
    for (let user = 0; user < 300; user += 1) {
      await stack.db
        .query(sql.unsafe`insert into insights.tracked_totals (environment, metric, unit_key, day, total, events)
        values ('development', 'spend', ${`spender-${user}`}, ${yesterday}::date, ${before(user)}, 1)`);
    }
    const shoppers = Array.from({ length: 300 }, (_, user) => ({ context: { userId: `spender-${user}` } }));
    const answered = await client.post('/api/frontend/track', {
      exposures: shoppers.map((shopper) => ({ ...shopper, flags: ['checkout-colour'] })),
    });
    expect(answered.status).toBe(202);
    // Which variant each shopper got is the edge's to say: read it the way the browser SDK would.
    const frontend = httpClient(stack.url, { authorization: frontendToken });
    const events: unknown[] = [];
    for (const [user, shopper] of shoppers.entries()) {
      const answer = await frontend.get(`/api/frontend?userId=${shopper.context.userId}`);
      const variant = answer.body.toggles.find((toggle: { name: string }) => toggle.name === 'checkout-colour')?.variant
        ?.name;
      const value = before(user) + (variant === 'green' ? 2 : 0) + ((user * 3) % 5) - 2;
      events.push({ name: 'spend', value, flags: ['checkout-colour'], ...shopper });
    }
    expect((await client.post('/api/frontend/track', { events })).status).toBe(202);
    await eventually(
      async () => {
        await page.reload();
        await experiment.getByText('What the results say now').waitFor();
        return (await experiment.getByText('green beats the control on the primary metric.').count()) > 0;
      },
      { timeoutMs: 30_000, intervalMs: 1000 },
    );
    const table = experiment.getByRole('table', { name: 'Results on spend' });
    await table.getByRole('columnheader', { name: 'Users' }).waitFor();
    await table.getByRole('columnheader', { name: 'Average spend per user' }).waitFor();
    await table.getByRole('columnheader', { name: 'Adjusted for before' }).waitFor();
    await experiment
      .getByText(/^Adjusted for what the same users did in the 7 days before \(300 of 300 users/)
      .waitFor();
    await screenshot(page, 'experiment-users');
    await expectAccessible('per-user results');
  }, 90_000);
});
