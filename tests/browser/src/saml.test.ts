import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { httpClient, startSamlPeer, startTestStack, type SamlPeer, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * SAML 2.0 in Chromium: an admin sets up the identity provider (run by the test) in the sign-in settings, and a
 * person signs in with the button on the sign-in page, through the provider's page, and lands in the console.
 */
let stack: TestStack;
let idp: SamlPeer;
let browser: Browser;

async function expectNoSeriousViolations(page: Page, name: string) {
  expect(JSON.stringify(await seriousViolations(page), null, 1), `axe on ${name}`).toBe('[]');
}

beforeAll(async () => {
  [stack, idp] = await Promise.all([startTestStack(), startSamlPeer()]);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
  await idp?.close();
});

describe('SAML in the console', () => {
  it('is set up by an admin, then signs a new person in from the sign-in page', async () => {
    const admin = await openPage(browser, stack.url);
    await admin.goto('/admin/auth');
    await signIn(admin, 'admin', 'unleash4all');
    const form = admin.getByRole('form', { name: 'SAML 2.0' });
    await form.getByRole('textbox', { name: "Identity provider's entity ID" }).fill(idp.entityId);
    await form.getByRole('textbox', { name: 'Single sign-on URL' }).fill(idp.ssoUrl);
    await form.getByRole('textbox', { name: /^Signing certificate/ }).fill(idp.certificate);
    await form.getByRole('switch', { name: 'Create users on their first sign-in' }).click({ force: true });
    // By keyboard: the page's sticky header may cover the switch where the page scrolled to.
    await form.getByRole('switch', { name: 'Sign in with SAML 2.0' }).focus();
    await admin.keyboard.press('Space');
    await form.getByRole('button', { name: 'Save SAML settings' }).click();
    await admin.getByText('SAML settings saved').waitFor();
    await screenshot(admin, 'saml-settings');
    await expectNoSeriousViolations(admin, 'the SAML settings');
    const settings = (await stack.admin.get('/api/admin/auth/saml/settings')).body;
    expect(settings).toMatchObject({ enabled: true, autoCreate: true, entityId: idp.entityId });

    // The provider signs in whoever reaches its page as Grace, posting to Bunting's assertion consumer service.
    const metadata = (await httpClient(stack.url).get('/auth/saml/metadata')).text;
    idp.signInAs({ email: 'grace@example.com', name: 'Grace' }, metadata, `${stack.url}/auth/saml/callback`);
    const person = await openPage(browser, stack.url);
    await person.goto('/login');
    await person.getByRole('heading', { name: 'Sign in to Bunting' }).waitFor();
    await screenshot(person, 'login-with-saml');
    await person.getByRole('link', { name: /SAML/ }).click();
    await person.waitForURL(/\/projects$/);
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users as {
      email?: string;
      name: string | null;
    }[];
    expect(users.find((user) => user.email === 'grace@example.com')?.name).toBe('Grace');
    await person.close();
    await admin.close();
  });
});
