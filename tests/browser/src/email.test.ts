import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  eventually,
  httpClient,
  resetLinkIn,
  startSmtpPeer,
  startTestStack,
  type SmtpPeer,
  type TestStack,
} from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * E-mail as people meet it, with a real SMTP server run by the test: an admin adds a user who gets a welcome mail
 * and chooses a password from its link, and someone who forgot their password asks for a link on the sign-in page.
 */
let smtp: SmtpPeer;
let stack: TestStack;
let browser: Browser;

async function expectNoSeriousViolations(page: Page, name: string) {
  expect(JSON.stringify(await seriousViolations(page), null, 1), `axe on ${name}`).toBe('[]');
}

/** Opens a mailed link in a browser of its own and sets the password there. */
async function choosePassword(link: string, password: string) {
  const page = await openPage(browser, stack.url);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^The same password again/).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('heading', { name: 'Password set' }).waitFor();
  await page.close();
}

beforeAll(async () => {
  smtp = await startSmtpPeer();
  stack = await startTestStack({
    env: { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(smtp.port), EMAIL_SENDER: 'Flags <flags@example.com>' },
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
  await smtp?.close();
});

describe('e-mail in the console', () => {
  it('sends a new user a welcome mail, whose link lets them choose a password', async () => {
    const page = await openPage(browser, stack.url);
    await page.goto('/admin/users');
    await signIn(page, 'admin', 'unleash4all');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Pia');
    await dialog.getByRole('textbox', { name: /^Email/ }).fill('pia@example.com');
    const welcome = dialog.getByRole('checkbox', { name: /Send a welcome e-mail/ });
    expect(await welcome.isChecked()).toBe(true);
    await screenshot(page, 'admin-new-user-welcome-mail');
    await expectNoSeriousViolations(page, 'the new user form');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('Pia was added').waitFor();
    expect(await page.getByLabel('Password link', { exact: true }).count()).toBe(0);

    const mail = await eventually(async () => smtp.to('pia@example.com')[0], { timeoutMs: 20_000 });
    expect(mail.subject).toBe('Welcome to Bunting');
    await choosePassword(resetLinkIn(mail)!, 'pia-password-1');
    expect(
      (
        await httpClient(stack.url).post('/auth/simple/login', {
          username: 'pia@example.com',
          password: 'pia-password-1',
        })
      ).status,
    ).toBe(200);

    // The admin turns off mail about change requests waiting for them, from their profile.
    await page.goto('/profile');
    const reviews = page.getByRole('switch', { name: 'E-mail me when a change request waits for my review' });
    expect(await reviews.isChecked()).toBe(true);
    await reviews.click({ force: true });
    await page.getByText('E-mail preference saved').waitFor();
    await screenshot(page, 'profile-email');
    await expectNoSeriousViolations(page, 'the profile');
    await page.reload();
    await page.getByRole('switch', { name: 'E-mail me when a change request waits for my review' }).waitFor();
    expect(
      await page.getByRole('switch', { name: 'E-mail me when a change request waits for my review' }).isChecked(),
    ).toBe(false);
    await page.close();
  });

  it("mails a forgotten password's link from the sign-in page", async () => {
    const page = await openPage(browser, stack.url);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByRole('textbox', { name: /^Email/ }).fill('pia@example.com');
    await expectNoSeriousViolations(page, 'the forgotten password page');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await screenshot(page, 'forgotten-password-sent');

    const mail = await eventually(
      async () => smtp.to('pia@example.com').find((message) => message.subject === 'Reset your Bunting password'),
      { timeoutMs: 20_000 },
    );
    await choosePassword(resetLinkIn(mail)!, 'pia-password-2');
    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await signIn(page, 'pia@example.com', 'pia-password-2');
    await page.waitForURL(/\/projects$/);
    await page.close();
  });
});
