import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpClient,
  startSamlPeer,
  startTestStack,
  type SamlPeer,
  type SamlTamper,
  type SamlUser,
  type TestStack,
} from '@bunting/test-stack';

/**
 * SAML 2.0 sign-in against an identity provider run by the test (samlify, signing with a key openssl made): started
 * at Bunting and at the provider, users created on first sign-in and their groups synced from an attribute; an
 * unsigned, altered, expired, wrong-audience, wrong-issuer or replayed assertion is refused with a page and no session.
 */
let stack: TestStack;
let idp: SamlPeer;
let spMetadata: string;
let acsUrl: string;

beforeAll(async () => {
  [stack, idp] = await Promise.all([startTestStack(), startSamlPeer()]);
  const saved = await stack.admin.post('/api/admin/auth/saml/settings', {
    enabled: true,
    entityId: idp.entityId,
    signOnUrl: idp.ssoUrl,
    certificate: idp.certificate,
    autoCreate: true,
    defaultRootRole: 'Editor',
    emailDomains: 'example.com',
    enableGroupSyncing: true,
    groupJsonPath: 'groups',
  });
  expect(saved.status).toBe(200);
  acsUrl = saved.body.acsUrl;
  spMetadata = (await httpClient(stack.url).get('/auth/saml/metadata')).text;
  await stack.admin.post('/api/admin/groups', { name: 'Engineers', mappingsSSO: ['engineering'] });
}, 60_000);
afterAll(async () => {
  await stack?.dispose();
  await idp?.close();
});

/** Posts a SAMLResponse to the ACS as a browser's form does. */
async function post(samlResponse: string) {
  const response = await fetch(acsUrl.replace(/^https?:\/\/[^/]+/, stack.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    cookie: response.headers.get('set-cookie')?.split(';')[0],
    text: await response.text(),
  };
}

async function signIn(user: SamlUser, tamper?: SamlTamper) {
  const start = await fetch(`${stack.url}/auth/saml/login`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const requestUrl = start.headers.get('location')!;
  expect(requestUrl.startsWith(idp.ssoUrl)).toBe(true);
  return post(await idp.respond(spMetadata, user, { requestUrl, ...(tamper ? { tamper } : {}) }));
}

describe('SAML sign-in', () => {
  it('tells the provider about itself: metadata, entity id and the address assertions go to', async () => {
    expect(spMetadata).toContain('WantAssertionsSigned="true"');
    expect(spMetadata).toContain(acsUrl);
    const settings = (await stack.admin.get('/api/admin/auth/saml/settings')).body;
    expect(settings).toMatchObject({
      enabled: true,
      entityId: idp.entityId,
      spEntityId: expect.stringContaining('/auth/saml/metadata'),
    });
    // The sign-in page offers it.
    const options = await httpClient(stack.url).get('/api/admin/user');
    expect(options.body.options.map((option: { type: string }) => option.type)).toContain('saml');
    // And the instance statistics say SAML is on, as Unleash's do.
    expect((await stack.admin.get('/api/admin/instance-admin/statistics')).body.SAMLenabled).toBe(true);
  });

  it('signs a new person in from Bunting, creating them with the default root role and their groups', async () => {
    const answer = await signIn({ email: 'ada@example.com', name: 'Ada', groups: ['engineering', 'sales'] });
    expect([answer.status, answer.location, answer.status === 401 ? answer.text : '']).toEqual([302, '/', '']);
    const me = await httpClient(stack.url, { cookie: answer.cookie! }).get('/api/admin/user');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'ada@example.com', name: 'Ada', rootRole: 2 });
    const groups = (await stack.admin.get('/api/admin/groups')).body.groups as {
      name: string;
      users: { user: { email?: string }; createdBy: string | null; joinedAt: string }[];
    }[];
    expect(groups.find((group) => group.name === 'Engineers')?.users.map((entry) => entry.user.email)).toEqual([
      'ada@example.com',
    ]);
    // The membership says the SAML sign-in made it.
    expect(groups.find((group) => group.name === 'Engineers')?.users[0]).toMatchObject({
      createdBy: 'saml',
      joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // And the sign-in history has it.
    const history = (await stack.admin.get('/api/admin/access-history?method=saml')).body.entries;
    expect(history[0]).toMatchObject({
      name: 'ada@example.com',
      userId: me.body.user.id,
      action: 'sign-in',
      outcome: 'success',
    });
  });

  it('signs out at the provider too, when it has a sign-out address', async () => {
    const settings = (await stack.admin.get('/api/admin/auth/saml/settings')).body;
    const { spEntityId: _entity, acsUrl: _acs, metadataUrl: _metadata, ...saved } = settings;
    await stack.admin.post('/api/admin/auth/saml/settings', {
      ...saved,
      signOutUrl: `${idp.ssoUrl.replace('/sso', '/slo')}`,
    });
    const answer = await signIn({ email: 'ada@example.com' });
    const out = await fetch(`${stack.url}/logout`, {
      method: 'POST',
      headers: { cookie: answer.cookie!, origin: stack.url },
      redirect: 'manual',
    });
    const body = (await out.json().catch(() => ({}))) as { redirectUrl?: string };
    expect(body.redirectUrl ?? out.headers.get('location')).toBe(idp.ssoUrl.replace('/sso', '/slo'));
    expect((await httpClient(stack.url, { cookie: answer.cookie! }).get('/api/admin/user')).status).toBe(401);
  });

  it('signs in a sign-in the provider started (no request of ours), and leaves the groups the provider no longer names', async () => {
    const answer = await post(await idp.respond(spMetadata, { email: 'ada@example.com', groups: [] }));
    expect(answer.status).toBe(302);
    expect((await httpClient(stack.url, { cookie: answer.cookie! }).get('/api/admin/user')).status).toBe(200);
    const groups = (await stack.admin.get('/api/admin/groups')).body.groups as { name: string; users: unknown[] }[];
    expect(groups.find((group) => group.name === 'Engineers')?.users).toEqual([]);
  });

  it('refuses, with a page and no session, what must not sign anyone in', async () => {
    const users = () => stack.admin.get('/api/admin/user-admin').then((reply) => reply.body.users.length as number);
    const before = await users();
    const refused: [string, Promise<Awaited<ReturnType<typeof post>>>][] = [
      ['an assertion that is not signed', signIn({ email: 'eve@example.com' }, { unsignedAssertion: true })],
      ['an altered assertion', signIn({ email: 'bob@example.com' }, { alter: ['bob@example.com', 'eve@example.com'] })],
      [
        'an expired assertion',
        signIn({ email: 'eve@example.com' }, { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }),
      ],
      [
        'an assertion for another service provider',
        signIn({ email: 'eve@example.com' }, { audience: 'https://elsewhere.example.com/saml' }),
      ],
      [
        'an assertion delivered to another recipient',
        signIn({ email: 'eve@example.com' }, { recipient: 'https://elsewhere.example.com/saml/acs' }),
      ],
      [
        "an assertion another issuer signed with the provider's certificate",
        signIn({ email: 'ada@example.com' }, { issuer: 'https://impostor.example.com/saml' }),
      ],
      ['a user from a domain not approved', signIn({ email: 'eve@elsewhere.org' })],
      ['no response at all', post('')],
    ];
    for (const [what, attempt] of refused) {
      const answer = await attempt;
      expect(answer.status, what).toBe(401);
      expect(answer.cookie, what).toBeUndefined();
      expect(answer.text, what).toContain('Sign-in with SAML was refused');
    }
    expect(await users()).toBe(before);

    const good = await idp.respond(spMetadata, { email: 'ada@example.com' });
    expect((await post(good)).status).toBe(302);
    const replayed = await post(good);
    expect([replayed.status, replayed.cookie]).toEqual([401, undefined]);
    expect(replayed.text).toContain('already used');
  });

  it('refuses settings that cannot work, and is refused to anyone but an admin', async () => {
    expect((await stack.admin.post('/api/admin/auth/saml/settings', { enabled: true, entityId: 'x' })).status).toBe(
      400,
    );
    expect((await stack.admin.post('/api/admin/auth/saml/settings', { certificate: 'not a certificate' })).status).toBe(
      400,
    );
    expect((await httpClient(stack.url).get('/api/admin/auth/saml/settings')).status).toBe(401);
    expect((await stack.admin.get('/api/admin/auth/saml/settings')).body.certificate).toBe(idp.certificate);
    expect(
      (
        await stack.admin.post('/api/admin/auth/saml/settings', {
          enabled: true,
          idpMetadata: '<md:EntityDescriptor/>',
        })
      ).status,
    ).toBe(400);
  });

  it("fills the provider's entity id, address and certificate from its metadata, and signs in with them", async () => {
    const { enabled, autoCreate, emailDomains } = (await stack.admin.get('/api/admin/auth/saml/settings'))
      .body as Record<string, unknown>;
    const saved = await stack.admin.post('/api/admin/auth/saml/settings', {
      enabled,
      autoCreate,
      emailDomains,
      defaultRootRole: 'Editor',
      idpMetadata: idp.metadata,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      entityId: idp.entityId,
      signOnUrl: idp.ssoUrl,
      certificate: idp.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, ''),
    });
    expect((await signIn({ email: 'ada@example.com' })).status).toBe(302);
    expect((await signIn({ email: 'ada@example.com' }, { issuer: 'https://impostor.example.com/saml' })).status).toBe(
      401,
    );
  });
});
