import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { initialize } from 'unleash-client';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventually, httpClient, loginAs, startTestStack, type TestStack, stopUnleashSdk } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * An administrator runs the instance from the browser: people (an invite link, a user added with a password link),
 * an API token used by the real SDK, environments, segments, a webhook whose deliveries arrive, maintenance mode,
 * the event log, the executive dashboard's charts, and their own profile with a personal access token.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; body: string }[] = [];

async function expectNoSeriousViolations(name: string, target: Page = page) {
  expect(JSON.stringify(await seriousViolations(target), null, 1), `axe on ${name}`).toBe('[]');
}

function read(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => resolve(body));
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = createServer((request, response) => {
    void read(request).then((body) => {
      received.push({ path: request.url ?? '', body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  await stack.admin.post('/api/admin/context', { name: 'plan', legalValues: [{ value: 'pro' }, { value: 'free' }] });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/admin');
  await signIn(page, 'admin', 'unleash4all');
  await page.waitForURL(/\/admin\/users$/);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await stack?.dispose();
});

describe('administration in the console', () => {
  it('makes an invite link that a new person signs up with, then signs in as them', async () => {
    await page.getByRole('tab', { name: 'Invite links' }).click();
    await page.getByLabel('New invite link').fill('Support team');
    await page.getByRole('button', { name: /Create link/ }).click();
    const link = await page.getByLabel('Invite link', { exact: true }).textContent();
    expect(link).toMatch(/\/new-user\?invite=/);
    await expectNoSeriousViolations('the invite links');

    const newcomer = await openPage(browser, stack.url);
    await newcomer.goto(new URL(link!).pathname + new URL(link!).search);
    await newcomer.getByRole('heading', { name: 'Join Bunting' }).waitFor();
    await screenshot(newcomer, 'invite-sign-up');
    await expectNoSeriousViolations('the sign-up page', newcomer);
    await newcomer.getByRole('textbox', { name: /^Name/ }).fill('Ines');
    await newcomer.getByRole('textbox', { name: /^Email/ }).fill('ines@example.com');
    await newcomer.getByLabel(/^Password/).fill('ines-password-1');
    await newcomer.getByRole('button', { name: 'Create my account' }).click();
    await newcomer.getByRole('link', { name: 'Sign in' }).click();
    await signIn(newcomer, 'ines@example.com', 'ines-password-1');
    await newcomer.waitForURL(/\/projects$/);
    await newcomer.close();
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users as { email?: string; rootRole: number }[];
    expect(users.find((user) => user.email === 'ines@example.com')?.rootRole).toBe(3);
  });

  it('adds a user without a password and gives them a link to choose one', async () => {
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Nora');
    await dialog.getByLabel('User name').fill('nora');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    const link = await page.getByLabel('Password link', { exact: true }).textContent();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Users' }).getByText('Nora', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Nora' }).click();
    const editing = page.getByRole('dialog', { name: 'Edit Nora' });
    await editing.getByRole('textbox', { name: 'Name' }).fill('Nora Berg');
    await editing.getByRole('textbox', { name: 'Email' }).fill('nora@example.com');
    await editing.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('table', { name: 'Users' }).getByText('Nora Berg', { exact: true }).waitFor();
    expect(
      (
        (await stack.admin.get('/api/admin/user-admin')).body.users as {
          username?: string;
          name?: string;
          email?: string;
        }[]
      ).find((user) => user.username === 'nora'),
    ).toMatchObject({ name: 'Nora Berg', email: 'nora@example.com' });
    await screenshot(page, 'admin-users');
    await expectNoSeriousViolations('the users');

    const nora = await openPage(browser, stack.url);
    await nora.goto(new URL(link!).pathname + new URL(link!).search);
    await nora.getByLabel(/^New password/).fill('nora-password-1');
    await nora.getByLabel(/^The same password again/).fill('nora-password-1');
    await nora.getByRole('button', { name: 'Set password' }).click();
    await nora.getByRole('heading', { name: 'Password set' }).waitFor();
    await nora.close();
    expect(
      (await httpClient(stack.url).post('/auth/simple/login', { username: 'nora', password: 'nora-password-1' }))
        .status,
    ).toBe(200);
  });

  it('shows a user locked by failed sign-ins, unlocks them and makes them read-only', async () => {
    const anyone = httpClient(stack.url);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await anyone.post('/auth/simple/login', { username: 'nora', password: 'a-wrong-guess' })).status).toBe(
        401,
      );
    }
    expect((await anyone.post('/auth/simple/login', { username: 'nora', password: 'nora-password-1' })).status).toBe(
      429,
    );
    await page.reload();
    await page.getByRole('tab', { name: 'Users' }).click();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByText('5 failed sign-ins').waitFor();
    await page.getByRole('combobox', { name: 'Root role of Nora Berg' }).click();
    await page.getByRole('option', { name: 'Reader' }).click();
    await page.getByText('Nora Berg was saved').waitFor();
    await screenshot(page, 'admin-user-locked');
    await page.getByRole('button', { name: 'Unlock Nora Berg' }).click();
    await page.getByText('Nora Berg can sign in again').waitFor();
    await table.getByText('5 failed sign-ins').waitFor({ state: 'detached' });
    await expectNoSeriousViolations('the users, after unlocking');
    const session = await anyone.post('/auth/simple/login', { username: 'nora', password: 'nora-password-1' });
    expect(session.status).toBe(200);
    const roles = (await stack.admin.get('/api/admin/user-admin')).body.rootRoles as { id: number; name: string }[];
    expect(session.body.rootRole).toBe(roles.find((role) => role.name === 'Reader')!.id);
  });

  it('creates a client token whose secret is shown once and works with the real SDK', async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'from-a-token' });
    await stack.admin.post('/api/admin/projects/default/features/from-a-token/environments/development/on');
    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('checkout-service');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByLabel('API token', { exact: true }).textContent())!;
    expect(secret).toMatch(/^\*:development\./);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByText(secret).count()).toBe(0);
    await screenshot(page, 'admin-api-tokens');
    await expectNoSeriousViolations('the API tokens');
    // An expiry set later, from the list.
    await page.getByLabel('New expiry of checkout-service').selectOption('30');
    await expect
      .poll(async () => {
        const tokens = (await stack.admin.get('/api/admin/api-tokens')).body.tokens as {
          tokenName: string;
          expiresAt: string | null;
        }[];
        const expiresAt = tokens.find((token) => token.tokenName === 'checkout-service')?.expiresAt;
        return expiresAt ? Math.round((Date.parse(expiresAt) - Date.now()) / 86_400_000) : null;
      })
      .toBe(30);

    const sdk = initialize({
      url: `${stack.url}/api/`,
      appName: 'console-token',
      customHeaders: { Authorization: secret },
      refreshInterval: 200,
      disableMetrics: true,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        sdk.once('synchronized', () => resolve());
        sdk.once('error', reject);
      });
      expect(sdk.isEnabled('from-a-token')).toBe(true);
    } finally {
      stopUnleashSdk(sdk);
    }
  });

  it('creates an environment and a segment with a constraint', async () => {
    await page.getByRole('tab', { name: 'Environments' }).click();
    await page.getByRole('button', { name: 'New environment' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).fill('staging');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByRole('switch', { name: 'staging enabled' }).waitFor();
    await expectNoSeriousViolations('the environments');
    const order = async () =>
      ((await stack.admin.get('/api/admin/environments')).body.environments as { name: string }[]).map(
        (environment) => environment.name,
      );
    const before = await order();
    const at = before.indexOf('staging');
    expect(at).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Move staging up' }).click();
    const expected = [...before.slice(0, at - 1), 'staging', before[at - 1], ...before.slice(at + 1)];
    await expect.poll(order).toEqual(expected);
    const rows = page.getByRole('table', { name: 'Environments' }).getByRole('row');
    await expect
      .poll(async () => (await rows.allInnerTexts()).slice(1).map((row) => row.split(/\s/)[0]))
      .toEqual(expected);

    await page.getByRole('tab', { name: 'Segments' }).click();
    await page.getByRole('button', { name: 'New segment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New segment' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('paying');
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const constraint = dialog.getByRole('group', { name: 'Constraint 1' });
    await constraint.getByRole('combobox', { name: 'Context field' }).click();
    await page.getByRole('option', { name: 'plan', exact: true }).click();
    await constraint.getByRole('combobox', { name: 'Values' }).click();
    await page.getByRole('option', { name: /^pro/ }).click();
    await dialog.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('table', { name: 'Segments' }).getByText('paying').waitFor();
    await expectNoSeriousViolations('the segments');
    const segments = (await stack.admin.get('/api/admin/segments')).body.segments as {
      name: string;
      constraints: unknown[];
    }[];
    expect(segments.find((segment) => segment.name === 'paying')?.constraints).toEqual([
      expect.objectContaining({ contextName: 'plan', operator: 'IN', values: ['pro'] }),
    ]);
    expect((await stack.admin.get('/api/admin/environments/staging')).body.enabled).toBe(true);
  });

  it('sends a webhook for the events chosen, and lists its deliveries', async () => {
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('textbox', { name: /^Webhook URL/ }).fill(`${receiverUrl}/flags`);
    await dialog.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('option', { name: 'feature-created', exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('table', { name: 'Integrations' }).waitFor();
    await stack.admin.post('/api/admin/projects/default/features', { name: 'announced' });
    await eventually(async () =>
      received.some((delivery) => delivery.path === '/flags' && delivery.body.includes('announced')),
    );
    await page.getByRole('button', { name: `${receiverUrl}/flags`, exact: true }).click();
    await page.getByRole('table', { name: 'Recent deliveries' }).getByText('success').first().waitFor();
    await screenshot(page, 'admin-webhook');
    await expectNoSeriousViolations('a webhook');
    await page.getByRole('dialog').getByRole('button', { name: 'Done', exact: true }).click();
  });

  it('sends to Slack through an integration made in the console, a message per channel', async () => {
    await page.getByRole('button', { name: 'New integration' }).click();
    await page.getByRole('dialog').getByRole('combobox', { name: 'Service' }).selectOption('slack');
    const dialog = page.getByRole('dialog', { name: 'New Slack integration' });
    await dialog.getByRole('textbox', { name: /^Slack webhook URL/ }).fill(`${receiverUrl}/slack`);
    await dialog.getByRole('textbox', { name: /^Default channel/ }).fill('releases');
    await dialog.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('option', { name: 'feature-created', exact: true }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'admin-integration-slack');
    await expectNoSeriousViolations('the Slack integration form');
    await dialog.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('table', { name: 'Integrations' }).getByText('Slack', { exact: true }).waitFor();
    await stack.admin.post('/api/admin/projects/default/features', { name: 'told-in-slack' });
    const message = await eventually(async () =>
      received.find((delivery) => delivery.path === '/slack' && delivery.body.includes('told-in-slack')),
    );
    expect(JSON.parse(message.body)).toMatchObject({ channel: '#releases', text: expect.stringContaining('created') });
  });

  it('creates a signal endpoint and a token, and lists a signal sent with it as it arrives', async () => {
    await page.getByRole('tab', { name: 'Signals' }).click();
    await page.getByLabel('New signal endpoint').fill('alerts');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('button', { name: 'alerts', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Signal endpoint alerts' });
    await dialog.getByRole('textbox', { name: 'New token' }).fill('pager');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const secret = await dialog.getByLabel('Signal token', { exact: true }).textContent();
    expect(secret).toMatch(/^[0-9a-f]{56}$/);
    await dialog.getByRole('table', { name: 'Tokens' }).getByText('pager').waitFor();

    // A sender posts with the token; the open list shows it without a reload.
    const sent = await fetch(`${stack.url}/api/signal-endpoint/alerts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ severity: 'critical', service: 'checkout' }),
    });
    expect(sent.status).toBe(202);
    const signals = dialog.getByRole('table', { name: 'Received signals' });
    await signals.getByText('"severity": "critical"').waitFor();
    expect(await signals.getByRole('row').nth(1).textContent()).toContain('pager');
    await screenshot(page, 'admin-signals');
    await expectNoSeriousViolations('a signal endpoint');
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    // The secret is never shown again.
    await page.getByRole('button', { name: 'alerts', exact: true }).click();
    expect(await page.getByRole('dialog').getByLabel('Signal token', { exact: true }).count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Done', exact: true }).click();
  });

  it('makes an action set whose filter lets a matching signal switch a flag, and shows the run', async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'incident-banner' });
    await stack.admin.post('/api/admin/service-account', {
      username: 'incident-bot',
      name: 'Incident bot',
      rootRole: 2,
    });
    const endpoint = (await stack.admin.post('/api/admin/signal-endpoints', { name: 'incidents' })).body as {
      id: number;
    };
    const secret = (await stack.admin.post(`/api/admin/signal-endpoints/${endpoint.id}/tokens`, { name: 'pager' })).body
      .token as string;

    await page.goto('/projects/default');
    await page.getByRole('link', { name: 'Actions' }).click();
    await page.getByRole('heading', { name: 'Actions', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New action set' }).click();
    const dialog = page.getByRole('dialog', { name: 'New action set' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Banner during incidents');
    await dialog.getByLabel('When a signal arrives at').selectOption({ label: 'incidents' });
    await dialog.getByLabel(/^Act as/).selectOption({ label: 'Incident bot' });
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    const filter = dialog.getByRole('group', { name: 'Filter 1' });
    await filter.getByRole('textbox', { name: /^Path/ }).fill('severity');
    await filter.getByLabel('Operator').selectOption('IN');
    await filter.getByRole('textbox', { name: /^Values/ }).fill('critical, major');
    const action = dialog.getByRole('group', { name: 'Action 1' });
    await action.getByRole('textbox', { name: 'Flag' }).fill('incident-banner');
    await action.getByLabel('In').selectOption('development');
    await expectNoSeriousViolations('the action set form');
    await dialog.getByRole('button', { name: 'Save action set' }).click();
    await page.getByRole('table', { name: 'Action sets' }).getByText('severity is one of critical, major').waitFor();

    const send = (body: unknown) =>
      fetch(`${stack.url}/api/signal-endpoint/incidents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await send({ severity: 'minor' })).status).toBe(202);
    // The signal rate limit is one a second per endpoint: wait it out rather than be refused.
    await eventually(async () => (await send({ severity: 'critical' })).status === 202, { intervalMs: 250 });
    const flag = () => stack.admin.get('/api/admin/projects/default/features/incident-banner');
    await eventually(
      async () =>
        (await flag()).body.environments.find((environment: { name: string }) => environment.name === 'development')
          .enabled === true,
    );

    await page.getByRole('button', { name: 'Runs of Banner during incidents' }).click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await runs.getByText('success').first().waitFor();
    // The minor one did not match: one run only (a header row and one).
    expect(await runs.getByRole('row').count()).toBe(2);
    await screenshot(page, 'project-actions');
    await expectNoSeriousViolations('the runs of an action set');
    await page.getByRole('dialog').getByRole('button', { name: 'Done', exact: true }).click();
    // Back to the administration, where the story goes on.
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Users' }).waitFor();
  });

  it("gives a group a project role, so its member may change that project's flag and not another's", async () => {
    for (const project of ['shop', 'blog']) {
      await stack.admin.post('/api/admin/projects', { id: project, name: project });
      await stack.admin.post(`/api/admin/projects/${project}/features`, { name: `${project}-flag` });
    }
    await stack.admin.post('/api/admin/user-admin', {
      username: 'mira',
      name: 'Mira',
      rootRole: 3,
      password: 'mira-password-1',
    });

    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Shop team');
    await dialog.getByRole('combobox', { name: 'Members' }).click();
    await page.getByRole('option', { name: 'Mira', exact: true }).click();
    await page.keyboard.press('Escape');
    await expectNoSeriousViolations('the group form');
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('table', { name: 'Groups' }).getByText('Mira').waitFor();

    await page.goto('/projects/shop');
    await page.getByRole('link', { name: 'Access' }).click();
    await page.getByLabel('User or group').selectOption({ label: 'Shop team' });
    await page.getByLabel('Project role').selectOption({ label: 'Member' });
    await page.getByRole('button', { name: 'Give access' }).click();
    await page.getByRole('table', { name: 'Project access' }).getByText('Shop team').waitFor();
    await screenshot(page, 'project-access');
    await expectNoSeriousViolations('the project access');

    const member = await openPage(browser, stack.url);
    await member.goto('/projects/shop/features/shop-flag');
    await signIn(member, 'mira', 'mira-password-1');
    await member.getByRole('heading', { name: 'shop-flag', level: 1 }).waitFor();
    await member.getByRole('switch', { name: 'Enabled in development' }).click();
    const flag = (project: string) => stack.admin.get(`/api/admin/projects/${project}/features/${project}-flag`);
    await eventually(
      async () =>
        (await flag('shop')).body.environments.find(
          (environment: { name: string }) => environment.name === 'development',
        ).enabled === true,
    );
    await member.goto('/projects/blog/features/blog-flag');
    await member.getByRole('heading', { name: 'blog-flag', level: 1 }).waitFor();
    expect(await member.getByRole('switch', { name: 'Enabled in development' }).isDisabled()).toBe(true);
    await member.close();

    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Users' }).waitFor();
  });

  it("charts a flag's exposures per hour from what SDKs reported", async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'metered' });
    const token = (
      await stack.admin.post('/api/admin/api-tokens', {
        tokenName: 'metrics-sdk',
        type: 'client',
        environment: 'development',
        projects: ['default'],
      })
    ).body.secret as string;
    const now = new Date().toISOString();
    const reported = await httpClient(stack.url, { authorization: token }).post('/api/client/metrics', {
      appName: 'checkout',
      instanceId: 'i-1',
      bucket: { start: now, stop: now, toggles: { metered: { yes: 7, no: 3 } } },
    });
    expect(reported.status).toBe(202);
    await eventually(
      async () => (await stack.admin.get('/api/admin/client-metrics/features/metered')).body.data?.length > 0,
    );

    await page.goto('/projects/default/features/metered');
    await page.getByRole('link', { name: 'Metrics', exact: true }).click();
    await page.getByRole('heading', { name: 'Metrics of metered', level: 1 }).waitFor();
    await page.getByRole('img', { name: 'Exposures per hour in development' }).waitFor();
    // The chart's numbers, as its data table gives them: 48 hours, one of which (the current one, or the one before
    // if the hour turned meanwhile) holds what was reported.
    const hours = page.getByRole('table', { name: 'Exposures per hour in development data' }).getByRole('row');
    expect(await hours.count()).toBe(49);
    const rows = await hours.allTextContents();
    expect(rows.filter((row) => row.endsWith(':0073'))).toHaveLength(1);
    expect(rows.slice(-2).some((row) => row.endsWith(':0073'))).toBe(true);
    expect(
      await page.getByRole('table', { name: 'Last hour per environment' }).getByRole('row').nth(1).textContent(),
    ).toBe('development73');
    await screenshot(page, 'flag-metrics');
    await expectNoSeriousViolations("a flag's metrics");
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Users' }).waitFor();
  });

  it('makes a project role from permissions picked per environment', async () => {
    await page.getByRole('tab', { name: 'Roles' }).click();
    await page.getByRole('button', { name: 'New role' }).click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Releaser');
    await dialog
      .getByRole('group', { name: 'Project permissions' })
      .getByLabel('UPDATE_FEATURE', { exact: true })
      .check();
    await dialog.getByLabel('UPDATE_FEATURE_ENVIRONMENT in production', { exact: true }).check();
    await expectNoSeriousViolations('the role form');
    await dialog.getByRole('button', { name: 'Create role' }).click();
    const row = page.getByRole('table', { name: 'Roles' }).getByRole('row').filter({ hasText: 'Releaser' });
    await row.getByText('Project (custom)').waitFor();
    await screenshot(page, 'admin-roles');

    const roles = (await stack.admin.get('/api/admin/roles')).body.roles as { id: number; name: string }[];
    const releaser = (await stack.admin.get(`/api/admin/roles/${roles.find((role) => role.name === 'Releaser')!.id}`))
      .body;
    expect(releaser).toMatchObject({ type: 'custom' });
    expect(releaser.permissions).toEqual(
      expect.arrayContaining([
        { name: 'UPDATE_FEATURE' },
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
      ]),
    );
    expect(releaser.permissions).toHaveLength(2);
  });

  it('creates a service account and a token that acts as it, shown once', async () => {
    await page.getByRole('tab', { name: 'Service accounts' }).click();
    await page.getByRole('textbox', { name: 'Username' }).fill('deploy-bot');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Deploy bot');
    await page.getByRole('button', { name: 'Create service account' }).click();
    await page.getByRole('button', { name: 'Tokens of deploy-bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tokens of Deploy bot' });
    await dialog.getByRole('textbox', { name: 'Description' }).fill('pipeline');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const secret = (await dialog.getByLabel('Service account token', { exact: true }).textContent())!;
    await dialog.getByRole('table', { name: 'Service account tokens' }).getByText('pipeline').waitFor();
    await expectNoSeriousViolations("a service account's tokens");
    // The token acts as the account (an Editor): it may create a flag, which is recorded as the account's.
    const script = httpClient(stack.url, { authorization: secret });
    expect((await script.post('/api/admin/projects/default/features', { name: 'by-the-bot' })).status).toBe(201);
    expect((await stack.admin.get('/api/admin/projects/default/features/by-the-bot')).body.createdBy).toMatchObject({
      name: 'deploy-bot',
    });
    await dialog.getByRole('button', { name: 'Delete the token pipeline' }).click();
    await page.getByRole('dialog', { name: 'Delete this token?' }).getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => (await script.get('/api/admin/projects')).status === 401);
    await page
      .getByRole('dialog', { name: 'Tokens of Deploy bot' })
      .getByRole('button', { name: 'Done', exact: true })
      .click();
  });

  it('sets up OpenID Connect with a masked secret, and turns password sign-in off and on', async () => {
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Sign-in', exact: true }).click();
    const form = page.getByRole('form', { name: 'OpenID Connect' });
    await form.getByRole('switch', { name: 'Sign in with OpenID Connect' }).check();
    await form.getByRole('textbox', { name: /^Discover URL/ }).fill('https://login.example.com');
    await form.getByRole('button', { name: 'Save OpenID Connect settings' }).click();
    // Refused beside the field: a client ID is needed to turn it on.
    await form
      .getByText(/is required to enable OpenID Connect/)
      .first()
      .waitFor();
    await form.getByRole('textbox', { name: 'Client ID' }).fill('bunting');
    await form.getByLabel(/^Client secret/).fill('very-secret');
    await form.getByRole('button', { name: 'Save OpenID Connect settings' }).click();
    await expect
      .poll(async () => (await stack.admin.get('/api/admin/auth/oidc/settings')).body)
      .toMatchObject({ enabled: true, clientId: 'bunting' });
    const stored = (await stack.admin.get('/api/admin/auth/oidc/settings')).body;
    expect(stored.secret).not.toBe('very-secret');
    // The sign-in options now offer it, and the sign-in page shows its button beside the password form.
    expect((await stack.anonymous.get('/api/admin/user')).body.options).toEqual([
      expect.objectContaining({ type: 'oidc' }),
    ]);
    await expectNoSeriousViolations('the sign-in settings');
    const visitor = await openPage(browser, stack.url);
    await visitor.goto('/login');
    const provider = visitor.getByRole('link', { name: 'Sign in with OpenID Connect' });
    await provider.waitFor();
    expect(await provider.getAttribute('href')).toBe('/auth/oidc/login');
    await visitor.getByRole('textbox', { name: /^User name or email/ }).waitFor();
    await screenshot(visitor, 'login-with-oidc');
    await expectNoSeriousViolations('the sign-in page with two methods', visitor);
    await visitor.close();
    await form.getByRole('switch', { name: 'Sign in with OpenID Connect' }).uncheck();
    await form.getByRole('button', { name: 'Save OpenID Connect settings' }).click();
    await expect.poll(async () => (await stack.admin.get('/api/admin/auth/oidc/settings')).body.enabled).toBe(false);

    const passwords = page.getByRole('switch', { name: 'Sign in with a user name and password' });
    // Each click saves at once; the switch follows what was saved.
    await passwords.click();
    await expect.poll(async () => (await stack.admin.get('/api/admin/auth/simple/settings')).body.disabled).toBe(true);
    await expect.poll(() => passwords.isChecked()).toBe(false);
    await passwords.click();
    await expect.poll(async () => (await stack.admin.get('/api/admin/auth/simple/settings')).body.disabled).toBe(false);
  });

  it('defines a custom strategy with a required parameter and deprecates it, and adds a coloured tag type', async () => {
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Strategies' }).click();
    await page.getByRole('button', { name: 'New strategy' }).click();
    const dialog = page.getByRole('dialog', { name: 'New strategy' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('by-store');
    await dialog.getByRole('button', { name: 'Add parameter' }).click();
    const parameter = dialog.getByRole('group', { name: 'Parameter 1' });
    await parameter.getByRole('textbox', { name: 'Parameter name' }).fill('stores');
    await parameter.getByLabel('Type').selectOption('list');
    await parameter.getByRole('checkbox', { name: 'Required' }).check();
    await expectNoSeriousViolations('the strategy form');
    await dialog.getByRole('button', { name: 'Create strategy' }).click();
    const row = page.getByRole('table', { name: 'Strategies' }).getByRole('row').filter({ hasText: 'by-store' });
    await row.getByText('stores (list, required)').waitFor();
    expect((await stack.admin.get('/api/admin/strategies/by-store')).body.parameters).toEqual([
      expect.objectContaining({ name: 'stores', type: 'list', required: true }),
    ]);
    await row.getByRole('button', { name: 'Deprecate' }).click();
    await row.getByText('deprecated').waitFor();
    // Asked until it holds, as the sign-in settings above are: this read once raced the page's own (one CI run in several).
    await expect.poll(async () => (await stack.admin.get('/api/admin/strategies/by-store')).body.deprecated).toBe(true);

    await page.getByRole('tab', { name: 'Tag types' }).click();
    await page.getByRole('textbox', { name: 'New tag type' }).fill('team');
    await page.getByRole('textbox', { name: 'Colour' }).fill('#1b6e31');
    await page.getByRole('button', { name: 'Create tag type' }).click();
    await page.getByRole('table', { name: 'Tag types' }).getByText('#1b6e31').waitFor();
    expect((await stack.admin.get('/api/admin/tag-types/team')).body.tagType).toMatchObject({
      name: 'team',
      color: '#1b6e31',
    });
    await expectNoSeriousViolations('the tag types');
  });

  it('switches maintenance mode on, which every page announces and the API enforces, and off again', async () => {
    await page.getByRole('tab', { name: 'Maintenance' }).click();
    await page.getByRole('switch', { name: 'Maintenance mode' }).click();
    await page.getByRole('status', { name: 'Maintenance mode' }).waitFor();
    expect(
      (await stack.admin.post('/api/admin/projects/default/features', { name: 'during-maintenance' })).status,
    ).toBe(503);
    await expectNoSeriousViolations('maintenance mode');
    await page.getByRole('switch', { name: 'Maintenance mode' }).click();
    await expect.poll(async () => (await stack.admin.get('/api/admin/maintenance')).body.enabled).toBe(false);
  });

  it('shows the instance statistics and downloads them as CSV', async () => {
    const expected = (await stack.admin.get('/api/admin/instance-admin/statistics')).body as {
      featureToggles: number;
      users: number;
    };
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Statistics' }).click();
    const table = page.getByRole('table', { name: 'Instance statistics' });
    await expect
      .poll(async () =>
        table
          .getByRole('row', { name: /^featureToggles / })
          .getByRole('cell')
          .textContent(),
      )
      .toBe(String(expected.featureToggles));
    expect(
      await table
        .getByRole('row', { name: /^users / })
        .getByRole('cell')
        .textContent(),
    ).toBe(String(expected.users));
    await expectNoSeriousViolations('the instance statistics');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download as CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.split('\n')[0]).toContain('featureToggles');
  });

  it("shows a project's status: health, stale flags, activity per day and lifecycle stages", async () => {
    await stack.admin.post('/api/admin/projects', { id: 'status-demo', name: 'Status demo' });
    for (const name of ['fresh-one', 'old-one'])
      await stack.admin.post('/api/admin/projects/status-demo/features', { name });
    expect(
      (await stack.admin.post('/api/admin/projects/status-demo/stale', { features: ['old-one'], stale: true })).status,
    ).toBe(202);
    // The status reads the event stream and admin-api's inventory: wait until it has seen all of the above (four
    // events today: the project, two flags, the stale mark).
    const expected = await eventually(async () => {
      const { body } = await stack.admin.get('/api/admin/projects/status-demo/status');
      return body.staleFlags?.total === 1 && body.activityCountByDate?.at(-1)?.count === 4 && body;
    });
    const today = expected.activityCountByDate.at(-1).count as number;

    await page.goto('/projects/status-demo');
    await page.getByRole('link', { name: 'Status' }).click();
    await page.getByRole('heading', { name: 'Status of status-demo', level: 1 }).waitFor();
    expect(await page.getByLabel('Stale flags', { exact: true }).textContent()).toBe('1');
    expect(await page.getByLabel('Health', { exact: true }).textContent()).toBe(`${expected.health.current} %`);
    const days = page.getByRole('table', { name: 'Changes per day, last 30 days data' }).getByRole('row');
    expect(await days.count()).toBe(31);
    expect((await days.last().getByRole('cell').allTextContents())[1]).toBe(String(today));
    const define = page.getByRole('table', { name: 'Flags by lifecycle stage' }).getByRole('row', { name: /^Define/ });
    expect((await define.getByRole('cell').allTextContents())[1]).toBe(
      String(expected.lifecycleSummary.initial.currentFlags),
    );
    await screenshot(page, 'project-status');
    await expectNoSeriousViolations('a project status');
  });

  it('lists the applications SDKs registered and shows one with its SDK marked outdated', async () => {
    const token = (
      await stack.admin.post('/api/admin/api-tokens', {
        tokenName: 'register-sdk',
        type: 'client',
        environment: 'development',
        projects: ['*'],
      })
    ).body.secret as string;
    const registered = await httpClient(stack.url, { authorization: token }).post('/api/client/register', {
      appName: 'legacy-billing',
      instanceId: 'billing-1',
      sdkVersion: 'unleash-client-node:3.0.0',
      strategies: ['default'],
      started: new Date().toISOString(),
      interval: 10_000,
    });
    expect(registered.status).toBe(202);
    await eventually(
      async () =>
        (await stack.admin.get('/api/admin/metrics/applications/legacy-billing/overview')).body.environments?.length >
        0,
    );
    await page.getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('textbox', { name: 'Search applications' }).fill('legacy');
    await page.getByRole('link', { name: 'legacy-billing' }).click();
    await page.getByRole('heading', { name: 'legacy-billing', level: 1 }).waitFor();
    const development = page.getByRole('table', { name: 'In development' });
    expect(
      await development
        .getByRole('row', { name: /^Instances/ })
        .getByRole('cell')
        .textContent(),
    ).toBe('1');
    await development.getByText('unleash-client-node:3.0.0 (outdated)').waitFor();
    await expectNoSeriousViolations('an application');
  });

  it('sends a production switch through a change request: drafted, reviewed by another admin, applied', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'guarded', name: 'Guarded' });
    await stack.admin.post('/api/admin/projects/guarded/features', { name: 'guarded-flag' });
    expect(
      (
        await stack.admin.put('/api/admin/projects/guarded/environments/production/change-requests/config', {
          changeRequestsEnabled: true,
          requiredApprovals: 1,
        })
      ).status,
    ).toBe(204);
    await stack.admin.post('/api/admin/user-admin', {
      username: 'rita',
      name: 'Rita',
      rootRole: 1,
      password: 'rita-password-1',
    });
    const production = async () =>
      (
        (await stack.admin.get('/api/admin/projects/guarded/features/guarded-flag')).body.environments as {
          name: string;
          enabled: boolean;
        }[]
      ).find((environment) => environment.name === 'production')!.enabled;

    await page.goto('/projects/guarded/features/guarded-flag');
    await page.getByRole('switch', { name: 'Enabled in production' }).click();
    const pending = page.getByRole('link', { name: /^Pending change: change request #\d+ \(Draft\)/ });
    await pending.waitFor();
    expect(await production()).toBe(false);
    await pending.click();
    // Each change reads as a difference from the flag as it is now.
    const turnOn = page.getByRole('table', { name: 'Turn on on guarded-flag' });
    await turnOn.waitFor();
    expect(await turnOn.getByRole('row').nth(1).innerText()).toMatch(/enabled\s+false\s+true/);
    await expectNoSeriousViolations('a change request');
    await page.getByRole('button', { name: 'Send for review' }).click();
    await page.getByLabel('State: In review').waitFor();
    const address = page.url();

    const reviewer = await openPage(browser, stack.url);
    await reviewer.goto(new URL(address).pathname);
    await signIn(reviewer, 'rita', 'rita-password-1');
    await reviewer.getByRole('textbox', { name: 'Comment' }).fill('Looks right');
    await reviewer.getByRole('button', { name: 'Approve' }).click();
    await reviewer.getByLabel('State: Approved').waitFor();
    await reviewer.close();

    await page.reload();
    await page.getByText('Looks right').waitFor();
    await page.getByRole('button', { name: 'Apply changes' }).click();
    await page.getByLabel('State: Applied').waitFor();
    expect(await production()).toBe(true);
    await screenshot(page, 'change-request');

    // A strategy added in production goes to a new draft too, and is not on the flag until applied.
    await page.goto('/projects/guarded/features/guarded-flag');
    await page.getByRole('button', { name: 'Add strategy in production' }).click();
    await page.getByRole('menuitem', { name: 'Standard' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save strategy' }).click();
    await page.getByRole('link', { name: /^Pending change: change request #\d+ \(Draft\)/ }).waitFor();
    // (Turning it on gave production the project's default strategy; the Standard one waits in the draft.)
    const strategies = await stack.admin.get(
      '/api/admin/projects/guarded/features/guarded-flag/environments/production/strategies',
    );
    expect((strategies.body as { name: string }[]).map((strategy) => strategy.name)).not.toContain('default');
    const drafts = (await stack.admin.get('/api/admin/projects/guarded/change-requests/pending/guarded-flag')).body as {
      state: string;
      features: { changes: { action: string }[] }[];
    }[];
    expect(drafts.map((draft) => [draft.state, draft.features[0]!.changes[0]!.action])).toEqual([
      ['Draft', 'addStrategy'],
    ]);

    // Reviewed through the API this time, then scheduled for tomorrow from its page.
    const draftId = (drafts[0] as unknown as { id: number }).id;
    const cr = `/api/admin/projects/guarded/change-requests/${draftId}`;
    // The author (the admin signed in in the browser) sends it for review; Rita approves.
    const author = await loginAs(stack.url, 'admin', 'unleash4all');
    expect((await author.put(`${cr}/state`, { state: 'In review' })).status).toBe(200);
    const rita = await loginAs(stack.url, 'rita', 'rita-password-1');
    expect((await rita.put(`${cr}/state`, { state: 'Approved' })).status).toBe(200);
    await page.goto(`/projects/guarded/change-requests/${draftId}`);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel(/^Or apply at/).fill(local);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByLabel('State: Scheduled').waitFor();
    const scheduled = (await stack.admin.get(cr)).body as { state: string; schedule?: { scheduledAt: string } };
    expect(scheduled.state).toBe('Scheduled');
    expect(Math.abs(Date.parse(scheduled.schedule!.scheduledAt) - tomorrow.getTime())).toBeLessThan(120_000);
    await expectNoSeriousViolations('a scheduled change request');

    // Disabling a strategy there is drafted too, and its page shows just what would change.
    await page.goto('/projects/guarded/features/guarded-flag');
    await page
      .getByRole('region', { name: 'production' })
      .getByRole('button', { name: /^More actions for / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Disable strategy' }).click();
    await page
      .getByRole('link', { name: /^Pending change: change request #\d+ \(Draft\)/ })
      .first()
      .click();
    const disabling = page.getByRole('table', { name: /^Change the strategy .* on guarded-flag$/ });
    await disabling.waitFor();
    expect(
      (await disabling.getByRole('row').allInnerTexts()).slice(1).map((row) => row.replace(/\s+/g, ' ').trim()),
    ).toEqual(['disabled false true']);
    expect(await page.getByText('since this change was drafted').count()).toBe(0);
    expect(
      (
        await stack.admin.get('/api/admin/projects/guarded/features/guarded-flag/environments/production/strategies')
      ).body.every((strategy: { disabled: boolean }) => !strategy.disabled),
    ).toBe(true);
    await screenshot(page, 'change-request-diff');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('State: Cancelled').waitFor();
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Users' }).waitFor();
  });

  it('filters the event log by type and opens an event in full', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Event type' }).fill('environment-created');
    await page.getByRole('option', { name: 'environment-created', exact: true }).click();
    const event = page.getByRole('article', { name: /^environment created/ });
    await event.waitFor();
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await event.getByRole('button', { name: 'Show the full event' }).click();
    expect(await event.getByLabel(/in full$/).textContent()).toContain('"staging"');
    await expectNoSeriousViolations('the event log');
  });

  it('draws the executive dashboard from what exists', async () => {
    // Every project's flags (the story made some outside the default project too).
    const projects = (await stack.admin.get('/api/admin/projects')).body.projects as { featureCount: number }[];
    const flags = projects.reduce((sum, project) => sum + project.featureCount, 0);
    await page.getByRole('link', { name: 'Insights', exact: true }).click();
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    await page.getByRole('img', { name: 'Flags' }).waitFor();
    // The chart's numbers, as its data table gives them: today's row counts the flags made above.
    const rows = page.getByRole('table', { name: 'Flags data' }).getByRole('row');
    const today = rows.last();
    await expect.poll(() => today.getByRole('cell').nth(1).textContent()).toBe(String(flags));
    expect(flags).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'insights-dashboard');
    await expectNoSeriousViolations('the executive dashboard');
  });

  it('shows the profile with roles, and makes a personal access token that acts as the user', async () => {
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByText('Root role').waitFor();
    await page.getByRole('textbox', { name: /^Description/ }).fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByLabel('Personal access token', { exact: true }).textContent())!;
    expect((await httpClient(stack.url, { authorization: secret }).get('/api/admin/projects')).status).toBe(200);
    await page.getByRole('table', { name: 'Personal access tokens' }).getByText('deploy script').waitFor();
    await expectNoSeriousViolations('the profile');
  });

  it('connects a coding agent from the profile: a token made for it drives the MCP server', async () => {
    await page.getByRole('heading', { name: 'Connect a coding agent' }).scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Create a token for an agent' }).click();
    const secret = (await page.getByLabel('Agent token', { exact: true }).textContent())!;
    expect(await page.getByLabel('Configuration for Claude Code').textContent()).toContain(`Bearer ${secret}`);
    await screenshot(page, 'profile-connect-agent');
    await expectNoSeriousViolations('the profile with an agent token');
    const client = new Client({ name: 'browser-story-agent', version: '1.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(20);
    await client.close();
  });

  it("allows an MCP client's OAuth sign-in on the consent page, which sends the code back to the client", async () => {
    const callback = `${receiverUrl}/oauth-callback`;
    const registered = await httpClient(stack.url).post('/oauth/register', {
      client_name: 'Story Agent',
      redirect_uris: [callback],
    });
    const verifier = 'b'.repeat(50);
    await page.goto(
      `/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: registered.body.client_id as string,
        redirect_uri: callback,
        state: 'story',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    await page.getByRole('heading', { name: 'Let Story Agent act as you?' }).waitFor();
    // It asked to read and change; the person gives it reading alone.
    await page.getByRole('radio', { name: 'Read only' }).check();
    await screenshot(page, 'mcp-consent');
    await expectNoSeriousViolations('the MCP consent page');
    await page.getByRole('button', { name: 'Allow' }).click();
    // The browser is sent on to the client's address; the page is done once it has loaded there.
    await page.waitForURL(/\/oauth-callback\?/);
    const arrived = await eventually(async () => received.find((entry) => entry.path.startsWith('/oauth-callback')));
    const back = new URL(arrived.path, receiverUrl);
    expect(back.searchParams.get('state')).toBe('story');
    const token = await fetch(`${stack.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: callback,
        client_id: registered.body.client_id as string,
        code_verifier: verifier,
      }),
    });
    const issued = (await token.json()) as { access_token: string; scope: string };
    expect(issued.scope).toBe('mcp:read');
    // Good at the MCP server only, and there for reading.
    expect(
      (await httpClient(stack.url, { authorization: `Bearer ${issued.access_token}` }).get('/api/admin/user')).status,
    ).toBe(403);
    const agent = new Client({ name: 'Story Agent', version: '1.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${issued.access_token}` } },
      }),
    );
    expect((await agent.callTool({ name: 'list_flags', arguments: { project: 'default' } })).isError).toBeFalsy();
    expect(
      (await agent.callTool({ name: 'create_flag', arguments: { project: 'default', name: 'made-by-a-reader' } }))
        .isError,
    ).toBe(true);
    await agent.close();

    // The profile lists it, with what it may do, and disconnects it.
    await page.goto('/profile');
    const agents = page.getByRole('table', { name: 'Connected agents' });
    await agents.getByText('Story Agent').waitFor();
    await agents.getByText('Read only').waitFor();
    await agents.scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-connected-agents');
    await expectNoSeriousViolations('the profile with a connected agent');
    await page.goto('/admin/agents');
    await page.getByRole('table', { name: 'Connected agents' }).getByText('Story Agent').waitFor();
    await screenshot(page, 'admin-connected-agents');
    await expectNoSeriousViolations('the connected agents page');
    await page.getByRole('button', { name: 'Disconnect Story Agent of admin' }).click();
    await page
      .getByRole('dialog', { name: 'Disconnect Story Agent?' })
      .getByRole('button', { name: 'Disconnect' })
      .click();
    await page.getByText('No agent is connected.').waitFor();
    const after = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${issued.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(after.status).toBe(401);
    await page.goto('/profile');
  });

  it('signs the user out everywhere from the profile, another browser included', async () => {
    const elsewhere = await loginAs(stack.url, 'admin', 'unleash4all');
    expect((await elsewhere.get('/api/admin/user')).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page
      .getByRole('dialog', { name: 'Sign out everywhere?' })
      .getByRole('button', { name: 'Sign out everywhere' })
      .click();
    await page.waitForURL(/\/login/);
    expect((await elsewhere.get('/api/admin/user')).status).toBe(401);
    await page.goto('/projects');
    await page.waitForURL(/\/login/);
  });
});
