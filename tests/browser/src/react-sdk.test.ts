import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';
import { buildReactFixture } from '../fixtures/react-sdk/build-fixture.ts';
import { launchBrowser, openPage, screenshot } from './browser.ts';

/**
 * Unleash's React SDK (@unleash/proxy-client-react) in Chromium, on a page served from another origin than the
 * stack: flags render, a change made through the admin API re-renders, and the SDK's metrics arrive.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;
let site: Server;
let siteUrl: string;
const frontendToken = 'default:development.react-fixture';
const base = '/api/admin/projects/default/features';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://fixture').pathname).replace(/^(\.\.[/\\])+/, '');
    if (path === '/favicon.ico') return void response.writeHead(204).end();
    const file = join(root, path === '/' ? 'index.html' : path);
    readFile(file).then(
      (body) =>
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } });
  await stack.admin.post(base, { name: 'new-checkout' });
  await stack.admin.post(`${base}/new-checkout/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'new-checkout' },
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
  });
  await stack.admin.post(`${base}/new-checkout/environments/development/on`);
  await stack.admin.post(base, { name: 'banner' });
  await stack.admin.put(`${base}/banner/environments/development/variants`, [
    {
      name: 'autumn',
      weight: 1000,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'string', value: 'Autumn sale' },
    },
  ]);
  await stack.admin.post(`${base}/banner/environments/development/on`);
  site = await serve(await buildReactFixture());
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = await openPage(browser, siteUrl);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await stack?.dispose();
});

describe('the React SDK in a browser, from another origin', () => {
  it('renders the flags for its context, follows a change within its refresh interval and sends metrics', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`/?api=${encodeURIComponent(stack.url)}&key=${encodeURIComponent(frontendToken)}&user=u7&plan=pro`);
    const flags = page.getByRole('list', { name: 'Flags' });
    await flags.getByText('new-checkout: on').waitFor();
    await flags.getByText('banner: autumn (Autumn sale)').waitFor();
    await screenshot(page, 'react-sdk');

    await stack.admin.post(`${base}/new-checkout/environments/development/off`);
    await flags.getByText('new-checkout: off').waitFor({ timeout: 5_000 });

    // The SDK's metrics reach insights: the flag's usage names the fixture's application.
    await eventually(
      async () => {
        const { body } = await stack.admin.get('/api/admin/client-metrics/features/banner');
        return body.seenApplications?.includes('react-fixture');
      },
      { timeoutMs: 15_000 },
    );
    expect(errors).toEqual([]);
  }, 45_000);

  it('sees nothing on for a context outside the constraint', async () => {
    await page.goto(
      `/?api=${encodeURIComponent(stack.url)}&key=${encodeURIComponent(frontendToken)}&user=u8&plan=free`,
    );
    const flags = page.getByRole('list', { name: 'Flags' });
    await flags.getByText('new-checkout: off').waitFor();
    await flags.getByText('banner: autumn (Autumn sale)').waitFor();
  });
});
