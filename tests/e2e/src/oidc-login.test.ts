import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { eventually, freePort, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * OpenID Connect login end to end against a real provider (oidc-provider) on loopback: redirect, the
 * provider's own login and consent pages, callback, auto-created user, group syncing and a working session.
 */
let stack: TestStack;
let providerServer: Server;
let issuer: string;

const accounts: Record<string, { email: string; name: string; groups: string[]; verified?: boolean }> = {
  alice: { email: 'alice@corp.example', name: 'Alice OIDC', groups: ['engineers', 'other'] },
  mallory: { email: 'mallory@elsewhere.example', name: 'Mallory', groups: [] },
  // Claims the email of a password user without the provider having verified it.
  eve: { email: 'victim@corp.example', name: 'Eve', groups: [], verified: false },
  // The same person as that password user, verified by the provider.
  victim: { email: 'victim@corp.example', name: 'Victim', groups: [] },
};

beforeAll(async () => {
  stack = await startTestStack();
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'bunting',
        client_secret: 'bunting-oidc-secret',
        redirect_uris: [`${stack.url}/auth/oidc/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['test-cookie-key'] },
    findAccount: async (_context: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({
        sub: id,
        email: accounts[id]!.email,
        email_verified: accounts[id]!.verified ?? true,
        name: accounts[id]!.name,
        groups: accounts[id]!.groups,
      }),
    }),
  });
  providerServer = createServer(provider.callback());
  await new Promise<void>((resolve) => providerServer.listen(port, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => providerServer?.close(resolve));
  await stack?.dispose();
});

/** A browser, reduced to what a login needs: a cookie jar per host and manual redirects. */
async function browserLogin(
  accountId: string,
  options: { dropCookieAtCallback?: string } = {},
): Promise<{ status: number; location: string | null; sessionCookie?: string | undefined; body?: any }> {
  const jar = new Map<string, Map<string, string>>();
  let url = `${stack.url}/auth/oidc/login`;
  let interactions = 0;
  for (let step = 0; step < 20; step += 1) {
    const target = new URL(url);
    const cookies = jar.get(target.host) ?? new Map<string, string>();
    jar.set(target.host, cookies);
    // A different client completing the login: it lacks the cookie the browser that started it got.
    if (target.pathname === '/auth/oidc/callback' && options.dropCookieAtCallback)
      cookies.delete(options.dropCookieAtCallback);
    const cookieHeader = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let response: Response;
    if (target.pathname.startsWith('/interaction/')) {
      const form: Record<string, string> =
        interactions === 0 ? { prompt: 'login', login: accountId, password: 'any' } : { prompt: 'consent' };
      interactions += 1;
      response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      });
    } else {
      response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader } });
    }
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!, value.join('='));
    }
    const location = response.headers.get('location');
    if (target.pathname === '/auth/oidc/callback') {
      const text = await response.text();
      return {
        status: response.status,
        location,
        sessionCookie: cookies.get('unleash-session'),
        body: text ? JSON.parse(text) : undefined,
      };
    }
    if (!location) throw new Error(`login stopped at ${url} with ${response.status}: ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}

describe('OIDC settings', () => {
  it('reads and saves settings, validating them and never returning the secret in clear', async () => {
    const initial = await stack.admin.get('/api/admin/auth/oidc/settings');
    expect(initial.status).toBe(200);
    expect(initial.body.enabled).toBe(false);
    for (const body of [
      { enabled: true, discoverUrl: 'not a url', clientId: 'x' },
      { idTokenSigningAlgorithm: 'HS256' },
      { defaultRootRole: 'Owner' },
      { enabled: 'yes' },
    ]) {
      const reply = await stack.admin.post('/api/admin/auth/oidc/settings', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.name).toBe('ValidationError');
    }
    const saved = await stack.admin.post('/api/admin/auth/oidc/settings', {
      enabled: true,
      discoverUrl: `${issuer}/.well-known/openid-configuration`,
      clientId: 'bunting',
      secret: 'bunting-oidc-secret',
      autoCreate: true,
      defaultRootRole: 'Editor',
      emailDomains: 'corp.example',
      idTokenSigningAlgorithm: 'RS256',
      enableGroupSyncing: true,
      groupJsonPath: 'groups',
      addGroupsScope: true,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.secret).not.toBe('bunting-oidc-secret');
    const read = await stack.admin.get('/api/admin/auth/oidc/settings');
    expect(read.body).toMatchObject({
      enabled: true,
      clientId: 'bunting',
      defaultRootRole: 'Editor',
      idTokenSigningAlgorithm: 'RS256',
    });
    expect(JSON.stringify(read.body)).not.toContain('bunting-oidc-secret');
    const event = await eventually(
      async () => (await stack.admin.post('/api/admin/events/search', { type: 'setting-created' })).body.events[0],
    );
    expect(event.data.id).toBe('unleash.auth.oidc');
    expect(JSON.stringify(event)).not.toContain('bunting-oidc-secret');
    const viewer = await stack.admin.post('/api/admin/user-admin', {
      username: 'oidc-viewer',
      rootRole: 3,
      password: 'viewer-password',
    });
    expect(viewer.status).toBe(201);
  });
});

describe('OIDC login', () => {
  it('auto-creates a user from an approved domain with the default root role, syncs groups and starts a session', async () => {
    const group = await stack.admin.post('/api/admin/groups', { name: 'Engineers', mappingsSSO: ['engineers'] });
    const unrelated = await stack.admin.post('/api/admin/groups', { name: 'Sales', mappingsSSO: ['sales'] });
    const result = await browserLogin('alice');
    expect(result.status).toBe(302);
    expect(result.location).toBe('/');
    expect(result.sessionCookie).toBeTruthy();
    const alice = httpClient(stack.url, { cookie: `unleash-session=${result.sessionCookie}` });
    const me = await alice.get('/api/admin/user');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'alice@corp.example', name: 'Alice OIDC', rootRole: 2 });
    expect((await alice.post('/api/admin/projects/default/features', { name: 'made-via-oidc' })).status).toBe(201);
    const engineers = await stack.admin.get(`/api/admin/groups/${group.body.id}`);
    expect(engineers.body.users.map((u: { user: { email: string } }) => u.user.email)).toEqual(['alice@corp.example']);
    expect(engineers.body.users[0].createdBy).toBe('oidc');
    expect((await stack.admin.get(`/api/admin/groups/${unrelated.body.id}`)).body.users).toEqual([]);

    const again = await browserLogin('alice');
    expect(again.status).toBe(302);
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users.filter(
      (u: { email?: string }) => u.email === 'alice@corp.example',
    );
    expect(users).toHaveLength(1);
    const history = (await stack.admin.get('/api/admin/access-history?method=oidc&user=alice@corp.example')).body;
    expect(history.entries.slice(0, 2)).toMatchObject([
      { userId: me.body.user.id, name: 'alice@corp.example', action: 'sign-in', outcome: 'success' },
      { userId: me.body.user.id, outcome: 'success' },
    ]);
  }, 30_000);

  it('refuses a user from a domain that is not approved and creates nothing', async () => {
    const before = (await stack.admin.get('/api/admin/user-admin')).body.users.length;
    const result = await browserLogin('mallory');
    expect(result.status).toBe(403);
    expect(result.body.name).toBe('NoAccessError');
    expect((await stack.admin.get('/api/admin/user-admin')).body.users.length).toBe(before);
    // A refused sign-in is in the history, with the reason.
    const refused = (await stack.admin.get('/api/admin/access-history?method=oidc&outcome=failure')).body.entries;
    expect(refused[0]).toMatchObject({ userId: null, action: 'sign-in', outcome: 'failure' });
    expect(refused[0].name).toMatch(/mallory/);
  }, 30_000);

  it('ends the provider session too when single sign-out is on', async () => {
    const settings = {
      enabled: true,
      discoverUrl: `${issuer}/.well-known/openid-configuration`,
      clientId: 'bunting',
      secret: 'bunting-oidc-secret',
      autoCreate: true,
      defaultRootRole: 'Editor',
      emailDomains: 'corp.example',
      idTokenSigningAlgorithm: 'RS256',
    };
    expect(
      (await stack.admin.post('/api/admin/auth/oidc/settings', { ...settings, enableSingleSignOut: true })).status,
    ).toBe(200);
    const login = await browserLogin('alice');
    const cookie = `unleash-session=${login.sessionCookie}`;
    const alice = httpClient(stack.url, { cookie });
    expect((await alice.get('/api/admin/user')).status).toBe(200);

    const logout = await fetch(`${stack.url}/logout`, {
      method: 'POST',
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('set-cookie')).toContain('Max-Age=0');
    const endSession = new URL(logout.headers.get('location')!);
    expect(endSession.origin).toBe(issuer);
    expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    expect((await alice.get('/api/admin/user')).status).toBe(401);
    // The provider accepts the hint and asks the user to confirm signing out.
    expect((await fetch(endSession, { redirect: 'manual' })).status).toBe(200);

    expect(
      (await stack.admin.post('/api/admin/auth/oidc/settings', { ...settings, enableSingleSignOut: false })).status,
    ).toBe(200);
    const local = await browserLogin('alice');
    const localLogout = await httpClient(stack.url, { cookie: `unleash-session=${local.sessionCookie}` }).post(
      '/logout',
    );
    expect(localLogout.status).toBe(200);
    expect(localLogout.body).toEqual({ message: 'Logged out' });
  }, 30_000);
});

describe('OIDC sign-in hardening', () => {
  const settings = () => ({
    enabled: true,
    discoverUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: 'bunting',
    secret: 'bunting-oidc-secret',
    autoCreate: false,
    idTokenSigningAlgorithm: 'RS256',
  });

  it('never signs in as an existing user on an email the provider has not verified; links on a verified one', async () => {
    expect((await stack.admin.post('/api/admin/auth/oidc/settings', settings())).status).toBe(200);
    const victim = await stack.admin.post('/api/admin/user-admin', {
      username: 'victim',
      email: 'victim@corp.example',
      password: 'victim-password',
      rootRole: 1,
    });
    expect(victim.status).toBe(201);
    const eve = await browserLogin('eve');
    expect(eve.status).toBe(401);
    expect(eve.sessionCookie).toBeUndefined();

    const real = await browserLogin('victim');
    expect(real.status).toBe(302);
    const me = await httpClient(stack.url, { cookie: `unleash-session=${real.sessionCookie}` }).get('/api/admin/user');
    expect(me.body.user.id).toBe(victim.body.id);
    // Linked now: the subject finds the user from here on; eve's unverified claim still finds nobody.
    expect((await browserLogin('eve')).status).toBe(401);
  }, 30_000);

  it('refuses a callback from a client without the cookie of the browser that started the login', async () => {
    const stolen = await browserLogin('alice', { dropCookieAtCallback: 'bunting-oidc-login' });
    expect(stolen.status).toBe(401);
    expect(stolen.sessionCookie).toBeUndefined();
  }, 30_000);

  it('sends the provider back to its own address, whatever Host or X-Forwarded-Host a request claims', async () => {
    const start = await fetch(`${stack.url}/auth/oidc/login`, {
      redirect: 'manual',
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(start.status).toBe(302);
    const redirectUri = new URL(start.headers.get('location')!).searchParams.get('redirect_uri');
    expect(redirectUri).toBe(`${stack.url}/auth/oidc/callback`);
  });
});
