import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * SCIM as an admin meets it: turned on in the sign-in settings with a token shown once, which an identity provider
 * (here the test, sending what Okta sends) then uses; the users and groups it provisions are marked in the lists.
 */
let stack: TestStack;
let browser: Browser;
let page: Page;

async function expectNoSeriousViolations(name: string) {
  expect(JSON.stringify(await seriousViolations(page), null, 1), `axe on ${name}`).toBe('[]');
}

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/admin/auth');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('SCIM in the console', () => {
  it('is turned on with a token shown once, and marks what the provider manages', async () => {
    await page.getByRole('heading', { name: 'SCIM provisioning' }).waitFor();
    await page.getByRole('switch', { name: 'Provision users and groups with SCIM' }).click({ force: true });
    await page.getByText('SCIM provisioning saved').waitFor();
    await page.getByRole('button', { name: 'Make a token' }).click();
    const token = (await page.getByLabel('SCIM token', { exact: true }).textContent())!;
    expect(token).toMatch(/^scim_/);
    await screenshot(page, 'scim-settings');
    await expectNoSeriousViolations('the sign-in settings with SCIM');

    // The provider, as Okta does it.
    const provider = httpClient(stack.url, {
      authorization: `Bearer ${token}`,
      'content-type': 'application/scim+json',
    });
    const user = await provider.post('/scim/v2/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'kai@example.com',
      displayName: 'Kai',
      emails: [{ value: 'kai@example.com', primary: true }],
      active: true,
    });
    expect(user.status).toBe(201);
    expect(
      (
        await provider.post('/scim/v2/Groups', {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
          displayName: 'Platform',
          members: [{ value: user.body.id }],
        })
      ).status,
    ).toBe(201);

    await page.getByRole('tab', { name: 'Users' }).click();
    const row = page.getByRole('row', { name: /Kai/ });
    await row.getByText('SCIM', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit Kai' }).isDisabled()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Root role of Kai' }).isDisabled()).toBe(false);
    await screenshot(page, 'scim-users');
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page
      .getByRole('row', { name: /Platform/ })
      .getByText('SCIM', { exact: true })
      .waitFor();
    await expectNoSeriousViolations('the groups with a SCIM group');
  });
});
