import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@bunting/platform';
import {
  eventually,
  httpClient,
  loginAs,
  resetLinkIn,
  startSmtpPeer,
  startTestStack,
  type SmtpPeer,
  type TestStack,
} from '@bunting/test-stack';

/**
 * E-mail through a real SMTP server (the smtp-server package) run by the test: reset links asked for on the sign-in
 * page, welcome mail for new accounts, and mail kept while the server is down and sent once it is back.
 */
let smtp: SmtpPeer;
let stack: TestStack;
let silent: TestStack;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  [stack, silent] = await Promise.all([
    startTestStack({
      env: {
        EMAIL_HOST: '127.0.0.1',
        EMAIL_PORT: String(smtp.port),
        EMAIL_SENDER: 'Flags <flags@example.com>',
        EMAIL_RETRY_BASE_MS: '500',
      },
    }),
    startTestStack(),
  ]);
  for (const [username, email] of [
    ['mia', 'mia@example.com'],
    ['ola', 'ola@example.com'],
  ] as const) {
    expect(
      (
        await stack.admin.post('/api/admin/user-admin', {
          username,
          email,
          name: username.toUpperCase(),
          password: 'first-password-1',
          rootRole: 'Editor',
        })
      ).status,
    ).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([stack?.dispose(), silent?.dispose()]);
  await smtp?.close();
});

describe('password reset by e-mail', () => {
  it('mails a link to the account with that address, and answers the same for an address nobody has', async () => {
    const anyone = httpClient(stack.url);
    const unknown = await anyone.post('/auth/reset/password-email', { email: 'nobody@example.com' });
    const known = await anyone.post('/auth/reset/password-email', { email: 'MIA@example.com' });
    expect([unknown.status, known.status]).toEqual([200, 200]);
    expect(unknown.text).toBe(known.text);
    const mail = await eventually(async () => smtp.to('mia@example.com')[0], { timeoutMs: 20_000 });
    expect(mail.from?.value[0]?.address).toBe('flags@example.com');
    expect(mail.subject).toBe('Reset your Bunting password');
    expect(mail.html).toContain('Set a new password');
    const link = new URL(resetLinkIn(mail)!);
    // Asked again at once: one link a minute is enough.
    expect((await anyone.post('/auth/reset/password-email', { email: 'mia@example.com' })).status).toBe(200);

    const token = link.searchParams.get('token')!;
    expect((await anyone.get(`/auth/reset/validate?token=${token}`)).body.email).toBe('mia@example.com');
    expect((await anyone.post('/auth/reset/password', { token, password: 'mailed-password-1' })).status).toBe(200);
    expect((await anyone.post('/auth/simple/login', { username: 'mia', password: 'mailed-password-1' })).status).toBe(
      200,
    );
    // Mail goes out in the order it was queued: the unknown address's would have come first.
    expect(smtp.to('nobody@example.com')).toEqual([]);
  });

  it('answers before it looks the address up, so a known address takes no longer than an unknown one', async () => {
    expect(
      (
        await stack.admin.post('/api/admin/user-admin', {
          username: 'lee',
          email: 'lee@example.com',
          password: 'first-password-1',
          rootRole: 'Viewer',
        })
      ).status,
    ).toBe(201);
    // The users table held by another transaction: an answer that waited on the lookup would wait on it too.
    const held = await stack.db.transaction(async (tx) => {
      await tx.query(sql.unsafe`lock table admin.users in access exclusive mode`);
      const answers = await Promise.all(
        ['lee@example.com', 'nobody-at-all@example.com'].map((email) =>
          httpClient(stack.url).post('/auth/reset/password-email', { email }),
        ),
      );
      return answers.map((answer) => answer.status);
    });
    expect(held).toEqual([200, 200]);
    // Once the table is free the link goes out.
    const mail = await eventually(
      async () => smtp.to('lee@example.com').find((message) => message.subject === 'Reset your Bunting password'),
      { timeoutMs: 20_000 },
    );
    expect(resetLinkIn(mail)).toMatch(/\/reset-password\?token=/);
  });

  it('refuses a malformed request without sending anything, and tells where no e-mail is set up', async () => {
    const anyone = httpClient(stack.url);
    expect((await anyone.post('/auth/reset/password-email', {})).status).toBe(400);
    expect((await anyone.post('/auth/reset/password-email', { email: 'x'.repeat(300) })).status).toBe(400);
    const nowhere = await httpClient(silent.url).post('/auth/reset/password-email', { email: 'admin@example.com' });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.message).toMatch(/sends no e-mail/);
    expect((await silent.admin.get('/api/admin/ui-config')).body.emailEnabled).toBe(false);
    expect((await stack.admin.get('/api/admin/ui-config')).body.emailEnabled).toBe(true);
  });
});

describe('welcome mail', () => {
  it('goes to a new account made with sendEmail, whose emailSent turns true once it has gone', async () => {
    const created = await stack.admin.post('/api/admin/user-admin', {
      email: 'ned@example.com',
      name: 'Ned',
      rootRole: 'Viewer',
      sendEmail: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.emailSent).toBe(false);
    const quiet = await stack.admin.post('/api/admin/user-admin', {
      email: 'quinn@example.com',
      name: 'Quinn',
      rootRole: 'Viewer',
    });
    const mail = await eventually(async () => smtp.to('ned@example.com')[0], { timeoutMs: 20_000 });
    expect(mail.subject).toBe('Welcome to Bunting');
    expect(mail.text).toContain('Hello Ned,');
    const token = new URL(resetLinkIn(mail)!).searchParams.get('token')!;
    expect(
      (await httpClient(stack.url).post('/auth/reset/password', { token, password: 'welcome-password-1' })).status,
    ).toBe(200);
    await eventually(
      async () => (await stack.admin.get(`/api/admin/user-admin/${created.body.id}`)).body.emailSent === true,
    );
    expect((await stack.admin.get(`/api/admin/user-admin/${quiet.body.id}`)).body.emailSent).toBe(false);
    expect(smtp.to('quinn@example.com')).toEqual([]);
  });
});

describe('change requests waiting for review', () => {
  it('are mailed to those who may approve them, not to the author nor to whoever turned such mail off', async () => {
    const { admin } = stack;
    await admin.post('/api/admin/projects', { id: 'gated', name: 'Gated' });
    await admin.post('/api/admin/projects/gated/features', { name: 'checkout' });
    await admin.put('/api/admin/projects/gated/environments/production/change-requests/config', {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    for (const [username, rootRole] of [
      ['ava', 'Editor'],
      ['bo', 'Admin'],
      ['cy', 'Admin'],
    ] as const) {
      await admin.post('/api/admin/user-admin', {
        username,
        email: `${username}@example.com`,
        password: `${username}-password-1`,
        rootRole,
      });
    }
    const cy = await loginAs(stack.url, 'cy', 'cy-password-1');
    expect((await cy.get('/api/admin/user/notifications')).body).toEqual({ changeRequests: true });
    expect((await cy.put('/api/admin/user/notifications', { changeRequests: false })).body).toEqual({
      changeRequests: false,
    });
    expect((await cy.put('/api/admin/user/notifications', { changeRequests: 'no' })).status).toBe(400);
    expect((await admin.get('/api/admin/user/notifications')).status).toBe(403);

    const ava = await loginAs(stack.url, 'ava', 'ava-password-1');
    const drafted = await ava.post('/api/admin/projects/gated/environments/production/change-requests', {
      feature: 'checkout',
      action: 'updateEnabled',
      payload: { enabled: true },
    });
    expect(drafted.status).toBe(200);
    await ava.put(`/api/admin/projects/gated/change-requests/${drafted.body.id}/title`, { title: 'Open the checkout' });
    // Nothing while it is a draft.
    expect(
      (await ava.put(`/api/admin/projects/gated/change-requests/${drafted.body.id}/state`, { state: 'In review' }))
        .status,
    ).toBe(200);
    const mail = await eventually(async () => smtp.to('bo@example.com')[0], { timeoutMs: 20_000 });
    expect(mail.subject).toBe('Change request "Open the checkout" waits for your review');
    expect(mail.text).toContain('ava asks for a review');
    expect(mail.text).toContain(`/projects/gated/change-requests/${drafted.body.id}`);
    // Mail goes out in the order it was queued: once a welcome queued after it has arrived, any to the author or to
    // cy would have too. Editors (mia, ola) may approve there as well.
    await admin.post('/api/admin/user-admin', { email: 'zed@example.com', rootRole: 'Viewer', sendEmail: true });
    await eventually(async () => smtp.to('zed@example.com').length === 1, { timeoutMs: 20_000 });
    expect(smtp.to('ola@example.com').map((message) => message.subject)).toEqual([
      'Change request "Open the checkout" waits for your review',
    ]);
    expect(smtp.to('ava@example.com')).toEqual([]);
    expect(smtp.to('cy@example.com')).toEqual([]);
  });
});

describe('an SMTP server that is away', () => {
  it('keeps the mail, tries again with back-off, and sends it once when the server is back', async () => {
    await smtp.close();
    const metric = async (outcome: string) => {
      const text = (await stack.anonymous.get('/internal-backstage/prometheus')).text;
      return Number(new RegExp(`^bunting_emails_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    };
    const retriedBefore = await metric('retried');
    expect((await httpClient(stack.url).post('/auth/reset/password-email', { email: 'ola@example.com' })).status).toBe(
      200,
    );
    await eventually(async () => (await metric('retried')) >= retriedBefore + 2, { timeoutMs: 20_000 });
    const resets = () =>
      smtp.to('ola@example.com').filter((message) => message.subject === 'Reset your Bunting password');
    expect(resets()).toEqual([]);
    smtp = await startSmtpPeer(smtp.port, smtp.received);
    await eventually(async () => resets().length > 0, { timeoutMs: 30_000 });
    // Sent once: the outbox marked it, so no later round sends it again.
    await eventually(async () => (await metric('sent')) >= 3);
    expect(resets()).toHaveLength(1);
  }, 60_000);
});

describe('a crash between the commit and the sending', () => {
  it('loses nothing: mail queued by a process killed before it sent it goes out, once, from the next one', async () => {
    const { isolate, startServiceProcess } = await import('@bunting/test-stack');
    const isolation = await isolate();
    const peer = await startSmtpPeer();
    const env = {
      ...isolation.env,
      INIT_ADMIN_API_TOKENS: '*:*.crash-admin',
      EMAIL_HOST: '127.0.0.1',
      EMAIL_PORT: String(peer.port),
    };
    // The first process would look at its outbox only in ten minutes: it is killed with the mail queued, unsent.
    const first = await startServiceProcess('admin-api', { ...env, EMAIL_POLL_MS: '600000' });
    let second: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
    try {
      const admin = httpClient(first.url, { authorization: '*:*.crash-admin' });
      expect(
        (
          await admin.post('/api/admin/user-admin', {
            email: 'kim@example.com',
            name: 'Kim',
            rootRole: 'Viewer',
            sendEmail: true,
          })
        ).status,
      ).toBe(201);
      await first.kill();
      expect(peer.to('kim@example.com')).toEqual([]);
      second = await startServiceProcess('admin-api', env);
      await eventually(async () => peer.to('kim@example.com').length === 1, { timeoutMs: 30_000 });
      expect(peer.to('kim@example.com')[0]!.subject).toBe('Welcome to Bunting');
      // Marked sent: the account says so once the outbox row is marked (which follows the SMTP peer's answer, so it
      // is awaited), and the next rounds send it no more.
      const kimSent = async () =>
        (
          (await httpClient(second!.url, { authorization: '*:*.crash-admin' }).get('/api/admin/user-admin')).body
            .users as { email?: string; emailSent: boolean }[]
        ).find((user) => user.email === 'kim@example.com')?.emailSent === true;
      await eventually(kimSent, { timeoutMs: 10_000 });
      expect(peer.to('kim@example.com')).toHaveLength(1);
    } finally {
      await second?.stop();
      await peer.close();
      await isolation.cleanup();
    }
  }, 90_000);
});
