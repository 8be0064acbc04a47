import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, loginAs, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

/**
 * SCIM 2.0 provisioning driven as Okta and Microsoft Entra ID drive it (their documented request sequences): users
 * looked up by filter, created, changed by PATCH, deactivated and deprovisioned; groups made and their members
 * added and removed by path filter. Bad input gets SCIM's error shape and changes nothing.
 */
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

let stack: TestStack;
let scim: HttpClient;
const ids = { ann: '', bob: '', group: '' };

beforeAll(async () => {
  stack = await startTestStack();
  expect((await stack.admin.post('/api/admin/scim-settings', { enabled: true })).body).toEqual({
    enabled: true,
    hasToken: false,
  });
  const token = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
  scim = httpClient(stack.url, { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' });
}, 60_000);
afterAll(() => stack?.dispose());

const adminUser = async (username: string) =>
  (
    (await stack.admin.get('/api/admin/user-admin')).body.users as {
      id: number;
      username: string;
      scimId: string | null;
      email?: string;
      name: string | null;
    }[]
  ).find((user) => user.username === username);

describe('SCIM discovery and its token', () => {
  it('describes what it supports, to the holder of the token only', async () => {
    const config = await scim.get('/scim/v2/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
    });
    expect((await scim.get('/scim/v2/ResourceTypes')).body.Resources.map((type: { id: string }) => type.id)).toEqual([
      'User',
      'Group',
    ]);
    expect((await scim.get('/scim/v2/Schemas')).body.totalResults).toBe(2);
    const anonymous = await httpClient(stack.url).get('/scim/v2/Users');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ schemas: [ERROR], status: '401' });
    expect((await httpClient(stack.url, { authorization: 'Bearer scim_wrong' }).get('/scim/v2/Users')).status).toBe(
      401,
    );
    // The admin API's own credentials are not SCIM's.
    expect((await stack.admin.get('/scim/v2/Users')).status).toBe(401);
    expect((await scim.get('/scim/v2/Nothing')).body).toMatchObject({ schemas: [ERROR], status: '404' });
    expect((await stack.admin.get('/api/admin/scim-settings')).body).toEqual({ enabled: true, hasToken: true });
  });
});

describe('users, as Okta provisions them', () => {
  it('looks a user up, creates them, finds them by filter in any case, and lists them in Bunting as managed', async () => {
    const absent = await scim.get(
      '/scim/v2/Users?filter=userName%20eq%20%22ann%40example.com%22&startIndex=1&count=100',
    );
    expect(absent.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      Resources: [],
    });
    const created = await scim.post('/scim/v2/Users', {
      schemas: [USER],
      userName: 'ann@example.com',
      externalId: '00u1okta',
      name: { givenName: 'Ann', familyName: 'Lee' },
      emails: [{ primary: true, value: 'ann@example.com', type: 'work' }],
      displayName: 'Ann Lee',
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: 'ann@example.com',
      externalId: '00u1okta',
      active: true,
      displayName: 'Ann Lee',
      emails: [{ value: 'ann@example.com', primary: true }],
    });
    ids.ann = created.body.id;
    expect((await scim.get(`/scim/v2/Users/${ids.ann}`)).body.userName).toBe('ann@example.com');
    const found = await scim.get('/scim/v2/Users?filter=userName%20eq%20%22ANN%40example.com%22');
    expect(found.body.totalResults).toBe(1);
    expect((await scim.get('/scim/v2/Users?filter=externalId%20eq%20%2200u1okta%22')).body.Resources[0].id).toBe(
      ids.ann,
    );
    const listed = await adminUser('ann@example.com');
    expect(listed).toMatchObject({ scimId: ids.ann, email: 'ann@example.com', name: 'Ann Lee' });
    const createdBy = await eventually(async () => {
      const events = (await stack.admin.get('/api/admin/search/events?type=IS:user-created')).body.events as {
        createdBy: string;
        data: { email: string };
      }[];
      return events.find((event) => event.data.email === 'ann@example.com')?.createdBy;
    });
    expect(createdBy).toBe('scim');
  });

  it('refuses changing a managed user by hand, but lets an admin give them a root role', async () => {
    const ann = (await adminUser('ann@example.com'))!;
    const renamed = await stack.admin.put(`/api/admin/user-admin/${ann.id}`, { name: 'Someone else' });
    expect([renamed.status, renamed.body.message]).toEqual([
      403,
      expect.stringContaining('managed by your identity provider through SCIM'),
    ]);
    expect((await stack.admin.delete(`/api/admin/user-admin/${ann.id}`)).status).toBe(403);
    expect((await stack.admin.put(`/api/admin/user-admin/${ann.id}`, { rootRole: 'Editor' })).status).toBe(200);
  });

  it('deactivates with PATCH active false, which ends their sessions and stops sign-in, and reactivates', async () => {
    const ann = (await adminUser('ann@example.com'))!;
    // A password through a reset link, so that a session can show what deactivation does.
    const link = new URL(
      (await stack.admin.post('/api/admin/user-admin/reset-password', { id: String(ann.id) })).body.resetPasswordUrl,
    );
    await httpClient(stack.url).post('/auth/reset/password', {
      token: link.searchParams.get('token'),
      password: 'ann-password-1',
    });
    const session = await loginAs(stack.url, 'ann@example.com', 'ann-password-1');
    expect((await session.get('/api/admin/projects')).status).toBe(200);

    const off = await scim.patch(`/scim/v2/Users/${ids.ann}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect([off.status, off.body.active]).toEqual([200, false]);
    expect((await session.get('/api/admin/projects')).status).toBe(401);
    expect(
      (
        await httpClient(stack.url).post('/auth/simple/login', {
          username: 'ann@example.com',
          password: 'ann-password-1',
        })
      ).status,
    ).toBe(401);
    const on = await scim.patch(`/scim/v2/Users/${ids.ann}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(on.body.active).toBe(true);
    expect(
      (
        await httpClient(stack.url).post('/auth/simple/login', {
          username: 'ann@example.com',
          password: 'ann-password-1',
        })
      ).status,
    ).toBe(200);
  });
});

describe('users, as Microsoft Entra ID changes them', () => {
  it('takes operations in any case, string booleans and filtered paths', async () => {
    const created = await scim.post('/scim/v2/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: 'bob-entra',
      userName: 'bob@example.com',
      active: true,
      displayName: 'Bob',
      emails: [{ primary: true, type: 'work', value: 'bob@example.com' }],
      name: { formatted: 'Bob', familyName: 'Ray', givenName: 'Bob' },
    });
    expect(created.status).toBe(201);
    ids.bob = created.body.id;
    const changed = await scim.patch(`/scim/v2/Users/${ids.bob}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Bob Ray' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'bob.ray@example.com' },
        { op: 'Replace', path: 'externalId', value: 'bob-entra-2' },
        { op: 'Replace', path: 'active', value: 'False' },
      ],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      displayName: 'Bob Ray',
      emails: [{ value: 'bob.ray@example.com' }],
      externalId: 'bob-entra-2',
      active: false,
    });
    expect(await adminUser('bob@example.com')).toMatchObject({ name: 'Bob Ray', email: 'bob.ray@example.com' });
    const replaced = await scim.put(`/scim/v2/Users/${ids.bob}`, {
      schemas: [USER],
      userName: 'bob@example.com',
      displayName: 'Robert Ray',
      emails: [{ value: 'bob.ray@example.com', primary: true }],
      active: true,
    });
    expect(replaced.body).toMatchObject({ displayName: 'Robert Ray', active: true });
  });
});

describe('groups', () => {
  it('are made, and their members added (Okta and Entra) and removed by a path filter, each change in the event log', async () => {
    const created = await scim.post('/scim/v2/Groups', { schemas: [GROUP], displayName: 'Engineers', members: [] });
    expect(created.status).toBe(201);
    ids.group = created.body.id;
    const okta = await scim.patch(`/scim/v2/Groups/${ids.group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: ids.ann, display: 'ann@example.com' }] }],
    });
    expect(okta.body.members.map((member: { value: string }) => member.value)).toEqual([ids.ann]);
    const entra = await scim.patch(`/scim/v2/Groups/${ids.group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: ids.bob }] }],
    });
    expect(entra.body.members.map((member: { value: string }) => member.value).sort()).toEqual(
      [ids.ann, ids.bob].sort(),
    );
    const group = (
      (await stack.admin.get('/api/admin/groups')).body.groups as {
        id: number;
        name: string;
        users: { user: { username: string } }[];
      }[]
    ).find((entry) => entry.name === 'Engineers')!;
    expect(group.users.map((entry) => entry.user.username).sort()).toEqual(['ann@example.com', 'bob@example.com']);

    const removed = await scim.patch(`/scim/v2/Groups/${ids.group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${ids.bob}"]` }],
    });
    expect(removed.body.members.map((member: { value: string }) => member.value)).toEqual([ids.ann]);
    const entraRemove = await scim.patch(`/scim/v2/Groups/${ids.group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: ids.ann }] }],
    });
    expect(entraRemove.body.members).toEqual([]);
    // The event log follows the stream: the four changes reach it shortly.
    const logged = await eventually(async () => {
      const events = (
        await stack.admin.get('/api/admin/search/events?type=IS_ANY_OF:group-user-added,group-user-removed')
      ).body.events as { type: string; createdBy: string }[];
      const types = events
        .filter((event) => event.createdBy === 'scim')
        .map((event) => event.type)
        .sort();
      return types.length === 4 && types;
    });
    expect(logged).toEqual(['group-user-added', 'group-user-added', 'group-user-removed', 'group-user-removed']);

    const listed = await scim.get(
      '/scim/v2/Groups?filter=displayName%20eq%20%22engineers%22&excludedAttributes=members',
    );
    expect(listed.body.totalResults).toBe(1);
    expect(listed.body.Resources[0]).not.toHaveProperty('members');
    const replaced = await scim.put(`/scim/v2/Groups/${ids.group}`, {
      schemas: [GROUP],
      displayName: 'Engineering',
      members: [{ value: ids.ann }],
    });
    expect(replaced.body).toMatchObject({ displayName: 'Engineering', members: [{ value: ids.ann }] });

    // By hand: the name and members are the provider's, a root role is the admin's.
    expect((await stack.admin.put(`/api/admin/groups/${group.id}`, { name: 'Renamed' })).status).toBe(403);
    expect((await stack.admin.put(`/api/admin/groups/${group.id}`, { name: 'Engineering', rootRole: 2 })).status).toBe(
      200,
    );
    expect((await stack.admin.delete(`/api/admin/groups/${group.id}`)).status).toBe(403);
  });
});

describe('bad input', () => {
  it("gets SCIM's error shape and changes nothing", async () => {
    const before = (await stack.admin.get('/api/admin/user-admin')).body.users.length;
    const cases: [string, Promise<{ status: number; body: any }>, number, string | undefined][] = [
      [
        'no userName',
        scim.post('/scim/v2/Users', { schemas: [USER], emails: [{ value: 'x@example.com' }] }),
        400,
        'invalidValue',
      ],
      [
        'a taken userName',
        scim.post('/scim/v2/Users', { schemas: [USER], userName: 'ann@example.com' }),
        409,
        'uniqueness',
      ],
      ['an unreadable filter', scim.get('/scim/v2/Users?filter=userName%20eq'), 400, 'invalidFilter'],
      ['an unknown user', scim.get('/scim/v2/Users/00000000-0000-0000-0000-000000000000'), 404, undefined],
      [
        'an unknown operation',
        scim.patch(`/scim/v2/Users/${ids.ann}`, {
          schemas: [PATCH],
          Operations: [{ op: 'move', path: 'active', value: false }],
        }),
        400,
        'invalidValue',
      ],
      [
        'an operation leaving no userName',
        scim.patch(`/scim/v2/Users/${ids.ann}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'userName' }] }),
        400,
        'invalidValue',
      ],
      [
        'a member nobody provisioned',
        scim.post('/scim/v2/Groups', { schemas: [GROUP], displayName: 'Ghosts', members: [{ value: 'nobody' }] }),
        400,
        'invalidValue',
      ],
      ['not JSON', scim.call('POST', '/scim/v2/Users', '{"userName": '), 400, 'invalidSyntax'],
    ];
    for (const [what, reply, status, scimType] of cases) {
      const answer = await reply;
      expect(answer.status, what).toBe(status);
      expect(answer.body, what).toMatchObject({
        schemas: [ERROR],
        status: String(status),
        ...(scimType ? { scimType } : {}),
        detail: expect.any(String),
      });
    }
    expect((await stack.admin.get('/api/admin/user-admin')).body.users.length).toBe(before);
    expect((await scim.get(`/scim/v2/Users/${ids.ann}`)).body.userName).toBe('ann@example.com');
    expect((await scim.get('/scim/v2/Groups?filter=displayName%20eq%20%22Ghosts%22')).body.totalResults).toBe(0);
  });
});

describe('deprovisioning', () => {
  it('deactivates a deleted user (404 to SCIM from then on) and deletes a group; an admin removes the rest', async () => {
    expect((await scim.delete(`/scim/v2/Users/${ids.ann}`)).status).toBe(204);
    expect((await scim.get(`/scim/v2/Users/${ids.ann}`)).status).toBe(404);
    expect(
      (
        await httpClient(stack.url).post('/auth/simple/login', {
          username: 'ann@example.com',
          password: 'ann-password-1',
        })
      ).status,
    ).toBe(401);
    expect((await adminUser('ann@example.com'))?.scimId).toBeNull();
    expect((await scim.delete(`/scim/v2/Groups/${ids.group}`)).status).toBe(204);
    expect((await scim.get(`/scim/v2/Groups/${ids.group}`)).status).toBe(404);
    expect((await stack.admin.delete('/api/admin/user-admin/scim-users')).status).toBe(200);
    expect(await adminUser('bob@example.com')).toBeUndefined();
    // Turned off, SCIM answers no one.
    await stack.admin.post('/api/admin/scim-settings', { enabled: false });
    expect((await scim.get('/scim/v2/Users')).status).toBe(401);
  });
});
