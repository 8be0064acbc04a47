import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * A guardrail in the console: set on a flag environment as a comparison of the users who get the change with those
 * who do not, watching the error counter the application labels with the flag; the change fails four times as often,
 * and the console shows the harm in words and figures while the flag goes off.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;
let client: HttpClient;
const clientToken = 'default:development.guardrail-browser';
const flagApi = '/api/admin/projects/default/features/new-payments';

/** What an SDK reports: evaluations per side and errors labelled with the side each user was on. */
const report = (yes: number, no: number, errors: { enabled: number; disabled: number }) =>
  client.post('/api/client/metrics', {
    appName: 'payments-app',
    bucket: {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { 'new-payments': { yes, no } },
    },
    impactMetrics: [
      {
        name: 'payment_errors',
        help: 'Payments that failed',
        type: 'counter',
        samples: [
          { labels: { 'new-payments': 'enabled' }, value: errors.enabled },
          { labels: { 'new-payments': 'disabled' }, value: errors.disabled },
        ],
      },
    ],
  });
const expectAccessible = async (where: string) => expect(await seriousViolations(page), where).toEqual([]);

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, SAFEGUARD_EVALUATION_MS: '300', GUARDRAIL_SETTLE_MS: '0' },
  });
  client = httpClient(stack.url, { authorization: clientToken });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'new-payments', type: 'release' });
  await stack.admin.post(`${flagApi}/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: 'new-payments' },
    constraints: [],
  });
  await stack.admin.post(`${flagApi}/environments/development/on`);
  expect((await report(0, 0, { enabled: 0, disabled: 0 })).status).toBe(202);
  await eventually(async () => (await stack.admin.get('/api/admin/impact-metrics/metadata')).body.metrics.length > 0);
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/features/new-payments');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('a guardrail in the console', () => {
  it('is set as a comparison with the users who do not get the change', async () => {
    const development = page.getByRole('region', { name: 'development' });
    await development.getByRole('button', { name: 'Add safeguard in development' }).click();
    const dialog = page.getByRole('dialog', { name: /Safeguard for new-payments/ });
    await dialog.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByRole('option', { name: 'payment_errors (counter)' }).click();
    await dialog.getByText('Compare with users without the change').click();
    await dialog.getByRole('combobox', { name: 'Harm is when the metric' }).selectOption('increase');
    await dialog.getByRole('textbox', { name: 'Minimum sample per side' }).fill('500');
    await screenshot(page, 'guardrail-form');
    await expectAccessible('the guardrail form');
    await dialog.getByRole('button', { name: 'Save safeguard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [saved] = (await stack.admin.get(flagApi)).body.environments.find(
      (one: { name: string }) => one.name === 'development',
    ).safeguards;
    expect(saved.comparison).toEqual({ harm: 'increase', alpha: 0.05, minimumSample: 500 });
    await development.getByText(/Guardrail: payment_errors, harm if it goes up with the change/).waitFor();
  });

  it('shows the harm in words and figures, and the flag goes off', async () => {
    const development = page.getByRole('region', { name: 'development' });
    // The first look takes the baseline; what is reported after it is compared.
    await eventually(async () => {
      const environment = (await stack.admin.get(flagApi)).body.environments.find(
        (one: { name: string }) => one.name === 'development',
      );
      return environment.safeguards[0].lastComparison !== null;
    });
    expect((await report(2000, 2000, { enabled: 400, disabled: 100 })).status).toBe(202);
    await development.getByText('harm found').waitFor({ timeout: 20_000 });
    await development
      .getByRole('status', { name: 'What the guardrail concluded' })
      .getByText(/^Harm: with the change/)
      .waitFor();
    const figures = development.getByRole('table', { name: 'payment_errors: with and without the change' });
    await figures.getByRole('cell', { name: '2,000' }).first().waitFor();
    await figures.getByRole('cell', { name: '0.2', exact: true }).waitFor();
    await figures.getByRole('cell', { name: '0.05', exact: true }).waitFor();
    await development.getByText(/Difference \+300 %/).waitFor();
    await development
      .getByRole('switch', { name: /development/ })
      .and(page.locator(':not(:checked)'))
      .waitFor();
    await screenshot(page, 'guardrail-harm');
    await expectAccessible('a guardrail that found harm');
  });

  it('is carried by a release template, with a milestone that waits for it', async () => {
    await page.goto('/admin/release-templates/new');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Guarded payments');
    await page.getByRole('textbox', { name: 'Name of milestone 1' }).fill('Half');
    await page.getByRole('button', { name: 'Add milestone' }).click();
    await page.getByRole('textbox', { name: 'Name of milestone 2' }).fill('Everyone');
    const waits = page.getByRole('checkbox', { name: 'Milestone 1 waits for the guardrails' });
    expect(await waits.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Minutes before milestone 2 of milestone 1' }).fill('60');
    await waits.check();
    await page.getByRole('button', { name: 'Add safeguard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a safeguard to every plan' });
    await dialog.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByRole('option', { name: 'payment_errors (counter)' }).click();
    await dialog.getByText('Compare with users without the change').click();
    await dialog.getByRole('combobox', { name: 'Harm is when the metric' }).selectOption('increase');
    await dialog.getByRole('button', { name: 'Save safeguard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(/^Guardrail on payment_errors: pauses the plan when it is significantly higher/).waitFor();
    await screenshot(page, 'template-guardrails');
    await expectAccessible('a template with a guardrail');
    await page.getByRole('button', { name: 'Save release template' }).click();
    await page.getByRole('table', { name: 'Release templates' }).getByText('Guarded payments').waitFor();
    const template = (await stack.admin.get('/api/admin/release-plan-templates')).body.find(
      (one: { name: string }) => one.name === 'Guarded payments',
    );
    expect(template.milestones[0].transitionCondition).toEqual({ intervalMinutes: 60, waitForGuardrails: true });
    expect(template.safeguards).toEqual([
      expect.objectContaining({ comparison: expect.objectContaining({ harm: 'increase' }) }),
    ]);
  });
});
