import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
let proxied: TestStack;
/** Where the lockout tests run: they lock this test's loopback address out of it. */
let guarded: TestStack;
/** With its public address configured, which is not the address the test reaches it at. */
let addressed: TestStack;

beforeAll(async () => {
  [stack, proxied, guarded, addressed] = await Promise.all([
    startTestStack(),
    // Behind a proxy on loopback that says the browser came over https.
    startTestStack({ env: { TRUST_PROXY: '127.0.0.1' } }),
    startTestStack(),
    startTestStack({ env: { BUNTING_URL: 'http://flags.example' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.dispose(), proxied?.dispose(), guarded?.dispose(), addressed?.dispose()]);
});

const login = (target: TestStack, username: string, password: string, headers: Record<string, string> = {}) =>
  httpClient(target.url, headers).post('/auth/simple/login', { username, password });

describe('brute-force protection', () => {
  it('locks a user whichever of their names is typed, so alternating them gives no extra guesses', async () => {
    await proxied.admin.post('/api/admin/user-admin', {
      username: 'member1',
      email: 'member1@ex.com',
      password: 'member1-password',
      rootRole: 3,
    });
    // Through the trusted proxy each attempt comes from an address of its own: only the user's count matters here.
    const from = (attempt: number) => ({ 'x-forwarded-for': `10.1.0.${attempt}` });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const typed = attempt % 2 === 0 ? 'member1' : 'member1@ex.com';
      expect((await login(proxied, typed, 'wrong-password', from(attempt))).status).toBe(401);
    }
    expect((await login(proxied, 'member1@ex.com', 'member1-password', from(10))).status).toBe(429);
    expect((await login(proxied, 'MEMBER1', 'member1-password', from(11))).status).toBe(429);

    // An admin lifts the lock (the user list shows the failed attempts first); the event log says who did.
    const users = (await proxied.admin.get('/api/admin/user-admin')).body.users as {
      id: number;
      username: string;
      loginAttempts: number;
    }[];
    const member = users.find((user) => user.username === 'member1')!;
    expect(member.loginAttempts).toBe(5);
    const adminSession = await loginAs(proxied.url, 'admin', 'unleash4all');
    await proxied.admin.post('/api/admin/user-admin', {
      username: 'editor1',
      password: 'editor1-password',
      rootRole: 2,
    });
    const asEditor = await loginAs(proxied.url, 'editor1', 'editor1-password');
    expect((await asEditor.post(`/api/admin/user-admin/${member.id}/unlock`)).status).toBe(403);
    expect((await proxied.admin.post('/api/admin/user-admin/99999/unlock')).status).toBe(404);
    expect((await adminSession.post(`/api/admin/user-admin/${member.id}/unlock`)).status).toBe(200);
    expect((await proxied.admin.get(`/api/admin/user-admin/${member.id}`)).body.loginAttempts).toBe(0);
    expect((await login(proxied, 'member1', 'member1-password', from(12))).status).toBe(200);
    const logged = (await proxied.admin.get('/api/admin/search/events?type=IS:user-updated')).body.events as {
      createdBy: string;
      data: { loginAttempts?: number };
    }[];
    expect(logged.find((event) => event.data.loginAttempts === 0)?.createdBy).toBe('admin');
  });

  it("locks a name that belongs to nobody just as a user's, so the answers do not tell which names exist", async () => {
    await proxied.admin.post('/api/admin/user-admin', {
      username: 'member2',
      password: 'member2-password',
      rootRole: 3,
    });
    const from = (attempt: number) => ({ 'x-forwarded-for': `10.2.0.${attempt}` });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(proxied, 'member2', 'wrong-password', from(attempt))).status).toBe(401);
      expect((await login(proxied, 'no-such-member', 'wrong-password', from(attempt + 100))).status).toBe(401);
    }
    const existing = await login(proxied, 'member2', 'member2-password', from(50));
    const unknown = await login(proxied, 'No-Such-Member', 'anything', from(150));
    expect([existing.status, unknown.status]).toEqual([429, 429]);
    expect(unknown.body.message).toBe(existing.body.message);
  });

  it('ignores X-Forwarded-For unless it comes from a trusted proxy, so a client cannot choose its address', async () => {
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect((await login(guarded, `nobody-${attempt}`, 'x', { 'x-forwarded-for': `10.0.0.${attempt}` })).status).toBe(
        401,
      );
    }
    expect((await login(guarded, 'nobody-else', 'x', { 'x-forwarded-for': '10.9.9.9' })).status).toBe(429);
    // Behind a trusted proxy each forwarded address counts for itself.
    for (let attempt = 0; attempt < 31; attempt += 1) {
      expect((await login(proxied, `nobody-${attempt}`, 'x', { 'x-forwarded-for': `10.0.1.${attempt}` })).status).toBe(
        401,
      );
    }
  });
});

describe('sessions', () => {
  it('end everywhere but here when a user changes their password, everywhere when an admin does or a reset link is used', async () => {
    await stack.admin.post('/api/admin/user-admin', { username: 'carol', password: 'carol-password-1', rootRole: 3 });
    const here = await loginAs(stack.url, 'carol', 'carol-password-1');
    const elsewhere = await loginAs(stack.url, 'carol', 'carol-password-1');
    // The current password is required, and must be right: a session alone cannot take the account.
    expect(
      (
        await here.post('/api/admin/user/change-password', {
          password: 'carol-password-x',
          confirmPassword: 'carol-password-x',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await here.post('/api/admin/user/change-password', {
          password: 'carol-password-x',
          confirmPassword: 'carol-password-x',
          oldPassword: 'wrong',
        })
      ).status,
    ).toBe(401);
    expect((await elsewhere.get('/api/admin/user')).status).toBe(200);
    expect(
      (
        await here.post('/api/admin/user/change-password', {
          password: 'carol-password-2',
          confirmPassword: 'carol-password-2',
          oldPassword: 'carol-password-1',
        })
      ).status,
    ).toBe(200);
    expect((await here.get('/api/admin/user')).status).toBe(200);
    expect((await elsewhere.get('/api/admin/user')).status).toBe(401);

    const user = (await stack.admin.get('/api/admin/user-admin')).body.users.find(
      (candidate: { username: string }) => candidate.username === 'carol',
    );
    expect(
      (await stack.admin.post(`/api/admin/user-admin/${user.id}/change-password`, { password: 'carol-password-3' }))
        .status,
    ).toBe(200);
    expect((await here.get('/api/admin/user')).status).toBe(401);

    const again = await loginAs(stack.url, 'carol', 'carol-password-3');
    const link = await stack.admin.post('/api/admin/user-admin/reset-password', { id: 'carol' });
    const token = new URL(link.body.resetPasswordUrl).searchParams.get('token');
    expect((await stack.anonymous.post('/auth/reset/password', { token, password: 'carol-password-4' })).status).toBe(
      200,
    );
    expect((await again.get('/api/admin/user')).status).toBe(401);

    const last = await loginAs(stack.url, 'carol', 'carol-password-4');
    expect((await stack.admin.delete(`/api/admin/user-admin/${user.id}`)).status).toBe(200);
    expect((await last.get('/api/admin/user')).status).toBe(401);
  });

  it('take changes only from the configured public origin when one is configured, whatever Host the request names', async () => {
    const cookie = (
      await addressed.anonymous.post('/auth/simple/login', { username: 'admin', password: 'unleash4all' })
    ).headers
      .get('set-cookie')!
      .split(';')[0]!;
    const write = (origin: string) =>
      fetch(`${addressed.url}/api/admin/projects`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ id: `origin-${origin.length}`, name: 'Origin check' }),
      });
    expect((await write(addressed.url)).status).toBe(403);
    expect((await write('http://flags.example')).status).toBe(201);
  });

  it('mark the cookie Secure when the browser came over https through a trusted proxy, and only then', async () => {
    const plain = await login(stack, 'admin', 'unleash4all', { 'x-forwarded-proto': 'https' });
    expect(plain.headers.get('set-cookie')).not.toContain('Secure');
    const behindProxy = await login(proxied, 'admin', 'unleash4all', { 'x-forwarded-proto': 'https' });
    expect(behindProxy.status).toBe(200);
    expect(behindProxy.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax; Secure/);
  });

  it('end with a POST to /logout; a GET (a link or image elsewhere) ends nothing', async () => {
    const session = await loginAs(stack.url, 'admin', 'unleash4all');
    expect((await session.get('/logout')).status).toBe(404);
    expect((await session.get('/api/admin/user')).status).toBe(200);
    const cookie = (
      await stack.anonymous.post('/auth/simple/login', { username: 'admin', password: 'unleash4all' })
    ).headers
      .get('set-cookie')!
      .split(';')[0]!;
    // A browser's form post is sent on to the sign-in page; a script gets JSON.
    const browser = await fetch(`${stack.url}/logout`, {
      method: 'POST',
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/login');
    expect((await httpClient(stack.url, { cookie }).get('/api/admin/user')).status).toBe(401);
    expect((await session.post('/logout')).body).toEqual({ message: 'Logged out' });
    expect((await session.get('/api/admin/user')).status).toBe(401);
  });

  it("all end with /logout?everywhere=true, on every device, and only that user's", async () => {
    await stack.admin.post('/api/admin/user-admin', { username: 'dave', password: 'dave-password-1', rootRole: 3 });
    const [laptop, phone] = [
      await loginAs(stack.url, 'dave', 'dave-password-1'),
      await loginAs(stack.url, 'dave', 'dave-password-1'),
    ];
    const someoneElse = await loginAs(stack.url, 'admin', 'unleash4all');
    expect((await phone.post('/logout?everywhere=true')).body).toEqual({ message: 'Logged out' });
    expect((await laptop.get('/api/admin/user')).status).toBe(401);
    expect((await phone.get('/api/admin/user')).status).toBe(401);
    expect((await someoneElse.get('/api/admin/user')).status).toBe(200);
  });
});

describe('security headers', () => {
  it('are on every answer a browser may show, and not on the SDK edge', async () => {
    for (const path of ['/api/admin/projects', '/health', '/no-such-page', '/auth/simple/settings']) {
      const reply = await stack.admin.get(path);
      expect(reply.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(reply.headers.get('x-frame-options'), path).toBe('DENY');
      expect(reply.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(reply.headers.get('referrer-policy'), path).toBeTruthy();
    }
    expect((await stack.anonymous.get('/api/frontend')).headers.get('x-frame-options')).toBeNull();
  });
});
