import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * A release in the console from start to end: a template made in the template editor, applied to a flag, waiting
 * until the flag is switched on, its first milestone served, a safeguard on an impact metric with its threshold
 * drawn, the plan paused when the metric crosses it, and resumed. A progression's minute lasts a second here.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;
let client: HttpClient;
const clientToken = 'default:development.release-browser';
const planApi = '/api/admin/projects/default/features/new-search/environments/development/release-plans';

const postErrors = (value: number) =>
  client.post('/api/client/metrics', {
    appName: 'search-app',
    bucket: { start: 0, stop: 0, toggles: {} },
    impactMetrics: [{ name: 'search_errors', help: 'Searches that failed', type: 'counter', samples: [{ value }] }],
  });
const expectAccessible = async (where: string) => expect(await seriousViolations(page), where).toEqual([]);

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: clientToken,
      RELEASE_PLAN_MINUTE_MS: '1000',
      PROGRESSION_SCHEDULER_MS: '100',
      SAFEGUARD_EVALUATION_MS: '300',
    },
  });
  client = httpClient(stack.url, { authorization: clientToken });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'new-search', type: 'release' });
  expect((await postErrors(0)).status).toBe(202);
  await eventually(async () => (await stack.admin.get('/api/admin/impact-metrics/metadata')).body.metrics.length > 0);
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/admin/release-templates');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('a release in the console', () => {
  it('makes a template of two milestones in the template editor', async () => {
    await page.getByRole('link', { name: 'New release template' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Search rollout');
    await page.getByRole('textbox', { name: 'Name of milestone 1' }).fill('Internal');
    await page.getByRole('button', { name: 'Add strategy to milestone 1' }).click();
    await page
      .getByRole('menuitem', { name: /Gradual rollout|flexibleRollout/ })
      .first()
      .click();
    let dialog = page.getByRole('dialog', { name: /in Internal/ });
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The last milestone has no interval; once a second one follows, the first gets one.
    await page.getByRole('button', { name: 'Add milestone' }).click();
    await page.getByRole('textbox', { name: 'Minutes before milestone 2 of milestone 1' }).fill('1');
    await page.getByRole('textbox', { name: 'Name of milestone 2' }).fill('Everyone');
    await page.getByRole('button', { name: 'Add strategy to milestone 2' }).click();
    await page
      .getByRole('menuitem', { name: /Gradual rollout|flexibleRollout/ })
      .first()
      .click();
    dialog = page.getByRole('dialog', { name: /in Everyone/ });
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await screenshot(page, 'release-template-editor');
    await expectAccessible('the template editor');
    await page.getByRole('button', { name: 'Save release template' }).click();
    await page.getByRole('table', { name: 'Release templates' }).getByText('Search rollout').waitFor();
    const [template] = (await stack.admin.get('/api/admin/release-plan-templates')).body;
    expect(
      template.milestones.map((milestone: { name: string; transitionCondition: unknown }) => [
        milestone.name,
        milestone.transitionCondition,
      ]),
    ).toEqual([
      ['Internal', { intervalMinutes: 1 }],
      ['Everyone', null],
    ]);
  });

  it("opens the template list and editor at Unleash's addresses too", async () => {
    const [template] = (await stack.admin.get('/api/admin/release-plan-templates')).body as { id: string }[];
    for (const [from, to] of [
      ['/release-templates', '/admin/release-templates'],
      ['/release-templates/create-template', '/admin/release-templates/new'],
      [`/release-templates/edit/${template!.id}`, `/admin/release-templates/${template!.id}`],
    ]) {
      await page.goto(from!);
      await page.waitForURL((url) => url.pathname === to);
    }
    await page
      .getByRole('textbox', { name: 'Name', exact: true })
      .and(page.locator('[value="Search rollout"]'))
      .waitFor();
  });

  it('applies it to a flag, where it waits until the flag is switched on, then serves its first milestone', async () => {
    await page.goto('/projects/default/features/new-search');
    const development = page.getByRole('region', { name: 'development' });
    await development.getByRole('button', { name: 'Apply release template in development' }).click();
    await page
      .getByRole('dialog', { name: 'Apply a release template' })
      .getByRole('button', { name: 'Apply template' })
      .click();
    await development.getByText(/Waiting: the first milestone starts/).waitFor();
    await development.getByRole('switch', { name: /development/ }).click();
    await development.getByRole('listitem', { name: 'Internal: active' }).waitFor();
    await development.getByText(/Starts on its own at/).waitFor();
    await screenshot(page, 'release-plan');
    await expectAccessible('a flag with a release plan');
  });

  it('pauses the plan when the safeguard sees the metric cross its threshold, drawn with the line, and resumes', async () => {
    const development = page.getByRole('region', { name: 'development' });
    await development.getByRole('button', { name: 'Add safeguard to the release plan in development' }).click();
    const dialog = page.getByRole('dialog', { name: /Safeguard for the release plan/ });
    await dialog.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByRole('option', { name: 'search_errors (counter)' }).click();
    await dialog.getByRole('textbox', { name: 'Threshold' }).fill('5');
    await dialog
      .getByRole('img', { name: 'Watched metric' })
      .or(dialog.getByText('No values in this range yet.'))
      .first()
      .waitFor();
    await screenshot(page, 'safeguard-form');
    await dialog.getByRole('button', { name: 'Save safeguard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await postErrors(9)).status).toBe(202);
    const paused = development.getByRole('status').filter({ hasText: /Paused at/ });
    await paused.waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => (await stack.admin.get(planApi)).body[0].safeguards[0].triggeredValue)
      .toBeGreaterThan(5);
    await development.getByText(/tripped at/).waitFor();
    // The chart under the safeguard catches up on its next refresh and draws the errors that tripped it.
    await development
      .getByRole('table', { name: "search_errors, with the safeguard's threshold data" })
      .getByRole('cell', { name: '9', exact: true })
      .waitFor({ state: 'attached', timeout: 30_000 });
    await screenshot(page, 'release-plan-paused');
    await expectAccessible('a paused release plan');

    // The errors are dealt with: the safeguard is removed and the plan resumed; the progression that came due runs.
    await development.getByRole('button', { name: 'Remove the safeguard' }).click();
    await page.getByRole('dialog', { name: 'Remove this safeguard?' }).getByRole('button', { name: 'Remove' }).click();
    await paused.getByRole('button', { name: 'Resume' }).click();
    await development.getByRole('listitem', { name: 'Everyone: active' }).waitFor({ timeout: 20_000 });
    await development.getByRole('listitem', { name: 'Internal: done' }).waitFor();
    await screenshot(page, 'release-plan-moved-on');
  });
});
