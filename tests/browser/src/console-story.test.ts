import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { UnleashClient } from 'unleash-proxy-client';
import { normalizedValue } from '@bunting/evaluation';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * A person runs a flag from the console, in a real Chromium against the real stack: signs in, creates a project
 * and a flag, rolls it out to half of a list of users in a segment, turns it on, and the SDKs answer what the
 * console configured. Along the way: live updates, history with diffs, a viewer who cannot change anything,
 * a cross-site write refused, an expired session, sign-out, and axe on every main page.
 */

let stack: TestStack;
let browser: Browser;
let page: Page;
let frontendToken: string;
let segmentId: number;

const insiders = Array.from({ length: 100 }, (_, index) => `user-${index}`);
const outsiders = Array.from({ length: 20 }, (_, index) => `other-${index}`);
// Unleash's rollout rule: a user is in when the hash of "groupId:userId" (1-100) is at most the percentage.
const inRollout = (userId: string, percent: number) => normalizedValue(userId, 'checkout') <= percent;
const flagPath = '/api/admin/projects/web-shop/features/checkout';

async function expectNoSeriousViolations(name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

/** Pastes text into the focused field the way a browser does: one paste event carrying the clipboard's text. */
async function paste(target: ReturnType<Page['getByLabel']>, text: string) {
  await target.focus();
  await target.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function frontendAnswer(userId: string, plan: string): Promise<boolean> {
  const params = new URLSearchParams({ userId, 'properties[plan]': plan });
  const response = await fetch(`${stack.url}/api/frontend?${params}`, { headers: { authorization: frontendToken } });
  const body = (await response.json()) as { toggles: { name: string }[] };
  return body.toggles.some((toggle) => toggle.name === 'checkout');
}

async function sessionCookie(target: Page): Promise<string> {
  const cookies = await target.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

beforeAll(async () => {
  stack = await startTestStack();
  const segment = await stack.admin.post('/api/admin/segments', {
    name: 'pro-plan',
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
  });
  segmentId = segment.body.id;
  await stack.admin.post('/api/admin/context', { name: 'plan', legalValues: [{ value: 'pro' }, { value: 'free' }] });
  await stack.admin.post('/api/admin/user-admin', {
    username: 'vera',
    password: 'viewer-password-1',
    rootRole: 'Viewer',
  });
  await stack.admin.post('/api/admin/banners', {
    message: 'Maintenance on Friday at 18:00',
    variant: 'warning',
    link: 'dialog',
    linkText: 'Details',
    dialog: 'Flags keep being served.',
  });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('the console', () => {
  it('sends a signed-out visitor to sign in, then back to the page asked for', async () => {
    await page.goto('/projects/default');
    await page.waitForURL(/\/login\?redirect=%2Fprojects%2Fdefault$/);
    await screenshot(page, 'login');
    await expectNoSeriousViolations('the sign-in page');
    await signIn(page, 'admin', 'unleash4all');
    await page.waitForURL(/\/projects\/default$/);
    await page.getByRole('heading', { name: 'Default', level: 1 }).waitFor();
    // The admins' banner is shown above every page, its dialog one click away.
    await page.getByRole('status', { name: 'Announcement' }).getByText('Maintenance on Friday at 18:00').waitFor();
    await page.getByRole('button', { name: 'Details' }).click();
    await page.getByRole('dialog', { name: 'Details' }).getByText('Flags keep being served.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  });

  it('refuses a wrong password with a message and keeps the page', async () => {
    const other = await openPage(browser, stack.url);
    await other.goto('/login');
    await signIn(other, 'admin', 'not-the-password');
    await other.getByRole('alert').filter({ hasText: 'Wrong user name or password.' }).waitFor();
    expect(new URL(other.url()).pathname).toBe('/login');
    await other.context().close();
  });

  it('creates a project', async () => {
    await page.goto('/projects');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Name').fill('Web shop');
    expect(await page.getByLabel(/^Id/).inputValue()).toBe('web-shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/projects\/web-shop$/);
    await page.getByRole('heading', { name: 'Web shop', level: 1 }).waitFor();
    await page.getByText('No flags yet').waitFor();
    expect((await stack.admin.get('/api/admin/projects/web-shop')).status).toBe(200);
    const token = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'console-story',
      type: 'frontend',
      environment: 'development',
      projects: ['web-shop'],
    });
    frontendToken = token.body.secret;
  });

  it('creates a flag, checking its name while it is typed', async () => {
    await page.getByRole('button', { name: 'New flag' }).click();
    await page.getByLabel(/^Name/).fill('checkout');
    await page.getByLabel('Description').fill('The new checkout');
    await page.getByRole('button', { name: 'Create flag' }).click();
    await page.waitForURL(/\/projects\/web-shop\/features\/checkout$/);
    await page.getByRole('heading', { name: 'checkout', level: 1 }).waitFor();

    // The same name again: the server's answer shows beside the field before anything is sent.
    await page.goto('/projects/web-shop');
    await page.getByRole('link', { name: 'checkout' }).waitFor();
    await page.getByRole('button', { name: 'New flag' }).click();
    await page.getByLabel(/^Name/).fill('checkout');
    await page
      .getByRole('dialog')
      .getByText(/already exists/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Create flag' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'project-flags');
    await expectNoSeriousViolations('the project page');
  });

  it('adds a 50 % rollout with a pasted list of users and a segment', async () => {
    await page.goto('/projects/web-shop/features/checkout');
    await page.getByRole('button', { name: 'Add strategy in development' }).click();
    await page.getByRole('menuitem', { name: 'Gradual rollout' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Rollout percent').fill('50');
    await dialog.getByRole('tab', { name: /Constraints/ }).click();
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const constraint = dialog.getByRole('group', { name: 'Constraint 1' });
    await constraint.getByRole('combobox', { name: 'Context field' }).click();
    await page.getByRole('option', { name: 'userId', exact: true }).click();
    await paste(constraint.getByLabel('Values'), insiders.join('\n'));
    await constraint.getByText('100 values').waitFor();
    await screenshot(page, 'strategy-editor');
    await expectNoSeriousViolations('the strategy editor');
    await dialog.getByRole('tab', { name: /Segments/ }).click();
    await dialog.getByRole('combobox', { name: 'Segments' }).click();
    await page.getByRole('option', { name: 'pro-plan' }).click();
    await page.keyboard.press('Tab');
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('region', { name: 'development' })
      .getByRole('group', { name: 'Strategy Gradual rollout' })
      .getByText('50 % of users')
      .waitFor();

    const saved = (await stack.admin.get(flagPath)).body.environments.find(
      (environment: { name: string }) => environment.name === 'development',
    );
    expect(saved.strategies).toHaveLength(1);
    expect(saved.strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' },
      segments: [segmentId],
    });
    expect(saved.strategies[0].constraints).toEqual([
      { contextName: 'userId', operator: 'IN', values: insiders, inverted: false, caseInsensitive: false },
    ]);
  });

  it('turns the flag on in development, and the SDKs answer what the console configured', async () => {
    const toggle = page.getByRole('switch', { name: 'Enabled in development' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await page.getByRole('switch', { name: 'Enabled in development', checked: true }).waitFor();
    await screenshot(page, 'flag');
    await expectNoSeriousViolations('the flag page');

    const firstIn = insiders.find((userId) => inRollout(userId, 50))!;
    await eventually(() => frontendAnswer(firstIn, 'pro'));
    const expected = insiders.map((userId) => inRollout(userId, 50));
    expect(expected.filter(Boolean).length).toBeGreaterThan(25);
    expect(expected.filter(Boolean).length).toBeLessThan(75);
    expect(await Promise.all(insiders.map((userId) => frontendAnswer(userId, 'pro')))).toEqual(expected);
    // Outside the segment or outside the constraint: never on.
    expect(await Promise.all(insiders.map((userId) => frontendAnswer(userId, 'free')))).toEqual(
      insiders.map(() => false),
    );
    expect(await Promise.all(outsiders.map((userId) => frontendAnswer(userId, 'pro')))).toEqual(
      outsiders.map(() => false),
    );

    const firstOut = insiders.find((userId) => !inRollout(userId, 50))!;
    const client = new UnleashClient({
      url: `${stack.url}/api/frontend`,
      clientKey: frontendToken,
      appName: 'console-story',
      refreshInterval: 0,
      metricsInterval: 0,
      context: { userId: firstIn, properties: { plan: 'pro' } },
    });
    await client.start();
    expect(client.isEnabled('checkout')).toBe(true);
    await client.updateContext({ userId: firstOut, properties: { plan: 'pro' } });
    expect(client.isEnabled('checkout')).toBe(false);
    await client.updateContext({ userId: firstIn, properties: { plan: 'free' } });
    expect(client.isEnabled('checkout')).toBe(false);
    await client.updateContext({ userId: outsiders[0]!, properties: { plan: 'pro' } });
    expect(client.isEnabled('checkout')).toBe(false);
    client.stop();
  });

  it('shows a change made elsewhere within a couple of seconds, without a reload', async () => {
    await page.getByRole('switch', { name: 'Enabled in production', checked: false }).waitFor();
    const changed = Date.now();
    await stack.admin.post(`${flagPath}/environments/production/on`);
    await stack.admin.post('/api/admin/features/checkout/tags', { type: 'simple', value: 'from-the-api' });
    await page.getByRole('switch', { name: 'Enabled in production', checked: true }).waitFor({ timeout: 5_000 });
    await page.getByText('simple:from-the-api').waitFor({ timeout: 5_000 });
    console.log(`console: a change through the API showed on the open flag page after ${Date.now() - changed} ms`);
  });

  it('keeps what was typed when a save is refused, with the error beside its field', async () => {
    const doomed = await stack.admin.post('/api/admin/segments', {
      name: 'short-lived',
      constraints: [{ contextName: 'plan', operator: 'IN', values: ['free'] }],
    });
    await page
      .getByRole('region', { name: 'development' })
      .getByRole('group', { name: 'Strategy Gradual rollout' })
      .waitFor();
    await page.getByRole('button', { name: 'Add strategy in production' }).click();
    await page.getByRole('menuitem', { name: 'Standard' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Everyone on the free plan');
    await dialog.getByRole('tab', { name: /Segments/ }).click();
    await dialog.getByRole('combobox', { name: 'Segments' }).click();
    await page.getByRole('option', { name: 'short-lived' }).click();
    await page.keyboard.press('Tab');
    // Someone deletes the segment while this form is open.
    expect((await stack.admin.delete(`/api/admin/segments/${doomed.body.id}`)).status).toBe(204);
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /segment \d+ does not exist/ })
      .waitFor();
    await dialog
      .getByText(/segment \d+ does not exist/)
      .first()
      .waitFor();
    await dialog.getByRole('tab', { name: 'General' }).click();
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Everyone on the free plan');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const production = (await stack.admin.get(flagPath)).body.environments.find(
      (environment: { name: string }) => environment.name === 'production',
    );
    expect(production.strategies.map((strategy: { title: string | null }) => strategy.title)).not.toContain(
      'Everyone on the free plan',
    );
  });

  it('edits the strategy, and the history shows each change with its diff', async () => {
    // The picture of the flag page in the README, once the notifications of earlier changes have gone.
    await page.getByRole('alert').first().waitFor({ state: 'hidden', timeout: 15_000 });
    await screenshot(page, 'flag-configured');
    const strategy = page
      .getByRole('region', { name: 'development' })
      .getByRole('group', { name: 'Strategy Gradual rollout' });
    await strategy.getByRole('button', { name: 'Edit Gradual rollout' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Rollout percent').fill('60');
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await strategy.getByText('60 % of users').waitFor();

    await page.getByRole('link', { name: 'History', exact: true }).last().click();
    await page.getByRole('heading', { name: 'History of checkout' }).waitFor();
    const update = page.getByRole('article', { name: 'feature strategy update by admin' });
    const row = update.getByRole('row').filter({ hasText: 'parameters.rollout' });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(['parameters.rollout', '50', '60']);
    await page.getByRole('article', { name: 'feature environment enabled by admin' }).first().waitFor();
    await page
      .getByRole('article', { name: 'feature strategy add by admin' })
      .filter({ hasText: 'development' })
      .waitFor();
    await page.getByRole('article', { name: 'feature created by admin' }).waitFor();
    await screenshot(page, 'flag-history');
    await expectNoSeriousViolations('the flag history');
  });

  it('answers in the playground, with the reason', async () => {
    const firstIn = insiders.find((userId) => inRollout(userId, 60))!;
    await page.goto('/playground');
    await page.getByRole('heading', { name: 'Playground' }).waitFor();
    await page.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Web shop' }).click();
    await page.getByLabel('userId').fill(firstIn);
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('group', { name: 'Property 1' }).getByRole('combobox', { name: 'Property' }).fill('plan');
    await page.getByRole('group', { name: 'Property 1' }).getByRole('textbox', { name: 'Value' }).fill('pro');
    await page.getByPlaceholder('Name to save as').fill('pro insider');
    await page.getByRole('button', { name: 'Save context' }).click();
    await page.getByRole('button', { name: 'Try it' }).click();
    const answers = page.getByRole('table', { name: 'Answers' });
    await answers.waitFor();
    const row = answers.getByRole('row').filter({ hasText: 'checkout' });
    expect((await row.getByRole('cell').allTextContents()).map((text) => text.trim())).toEqual([
      '▸ checkout',
      'on',
      'on',
    ]);
    await row.getByRole('button', { name: 'Why checkout answers so' }).click();
    await answers.getByText('segment pro-plan').first().waitFor();
    await screenshot(page, 'playground');
    await expectNoSeriousViolations('the playground');

    // The saved context survives a reload: it lives in this browser.
    await page.reload();
    await page.getByRole('button', { name: 'Saved contexts' }).click();
    await page.getByRole('menuitem', { name: 'pro insider' }).click();
    expect(await page.getByLabel('userId').inputValue()).toBe(firstIn);
  });

  it('lets a viewer browse but not change, and says why', async () => {
    const viewer = await openPage(browser, stack.url);
    await viewer.goto('/projects/web-shop/features/checkout');
    await signIn(viewer, 'vera', 'viewer-password-1');
    await viewer.getByRole('heading', { name: 'checkout', level: 1 }).waitFor();
    const toggle = viewer.getByRole('switch', { name: 'Enabled in development' });
    expect(await toggle.isDisabled()).toBe(true);
    expect(await viewer.getByRole('button', { name: 'Add strategy in development' }).isDisabled()).toBe(true);
    expect(await viewer.getByRole('button', { name: 'Archive' }).isDisabled()).toBe(true);
    await viewer.getByLabel('You need the UPDATE_FEATURE_ENVIRONMENT permission in development.').first().waitFor();
    await screenshot(viewer, 'flag-as-viewer');

    // The server refuses the same change sent with the viewer's session, naming the permission.
    const refused = await viewer.request.post(`${flagPath}/environments/development/off`, {
      headers: { origin: stack.url },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toContain('UPDATE_FEATURE_ENVIRONMENT');
    const development = (await stack.admin.get(flagPath)).body.environments.find(
      (environment: { name: string }) => environment.name === 'development',
    );
    expect(development.enabled).toBe(true);
    await viewer.context().close();
  });

  it('refuses a cross-site write carrying a valid session cookie, and changes nothing', async () => {
    const cookie = await sessionCookie(page);
    const write = (origin: string, path: string, body?: unknown) =>
      fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { cookie, origin, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const crossSite = await write('https://evil.example', `${flagPath}/environments/development/off`);
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { name: string }).name).toBe('NoAccessError');
    const development = (await stack.admin.get(flagPath)).body.environments.find(
      (environment: { name: string }) => environment.name === 'development',
    );
    expect(development.enabled).toBe(true);
    // The same cookie from the console's own origin is accepted: the refusal was about the origin.
    expect((await write(stack.url, '/api/admin/features/validate', { name: 'fresh-name' })).status).toBe(200);
    expect((await write('https://evil.example', '/api/admin/features/validate', { name: 'fresh-name' })).status).toBe(
      403,
    );
  });

  it('brings the user back to sign in when the session ends elsewhere, then to the page they were on', async () => {
    await page.goto('/history');
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    await expectNoSeriousViolations('the history');
    // Signed out from another tab: the session ends on the server.
    const ended = await fetch(`${stack.url}/logout`, {
      method: 'POST',
      headers: { cookie: await sessionCookie(page), origin: stack.url },
      redirect: 'manual',
    });
    expect(ended.status).toBeLessThan(400);
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.waitForURL(/\/login\?redirect=%2Fprojects$/);
    await signIn(page, 'admin', 'unleash4all');
    await page.waitForURL(/\/projects$/);
    await page.getByRole('link', { name: 'Web shop' }).waitFor();
    await screenshot(page, 'projects');
    await expectNoSeriousViolations('the projects page');
  });

  it('signs out, ending the session', async () => {
    const cookie = await sessionCookie(page);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    const me = httpClient(stack.url, { cookie });
    expect((await me.get('/api/admin/user')).status).toBe(401);
  });
});
