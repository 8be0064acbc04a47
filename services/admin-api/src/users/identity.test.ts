import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

async function eventTypes(query: string, count: number) {
  return eventually(async () => {
    const reply = await stack.admin.post('/api/admin/events/search', { query });
    const types = (reply.body.events as { type: string }[]).map((e) => e.type).reverse();
    return types.length >= count && types;
  });
}

describe('users', () => {
  it('lists all users and all root roles, starting with the default admin', async () => {
    const reply = await stack.admin.get('/api/admin/user-admin');
    expect(reply.status).toBe(200);
    expect(reply.body.users.map((u: { username: string }) => u.username)).toEqual(['admin']);
    // Reader, the read-only root role, is built in too (its id is whatever the installation's sequence gave it).
    expect(reply.body.rootRoles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Editor', 'Viewer', 'Reader']);
    expect(reply.body.rootRoles.slice(0, 3).map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
    expect(reply.body.users[0]).not.toHaveProperty('passwordHash');
  });

  it('creates, updates and deletes users; duplicates are 409 and bad input 400, creating nothing', async () => {
    const created = await stack.admin.post('/api/admin/user-admin', {
      email: 'ann@example.com',
      name: 'Ann',
      rootRole: 2,
      password: 'correct-horse',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: 'ann@example.com',
      name: 'Ann',
      rootRole: 2,
      accountType: 'User',
      loginAttempts: 0,
      seenAt: null,
    });
    expect((await stack.admin.post('/api/admin/user-admin', { email: 'ANN@example.com', rootRole: 3 })).status).toBe(
      409,
    );
    for (const body of [
      { email: 'not-an-email', rootRole: 3 },
      { rootRole: 3 },
      { email: 'x@example.com', rootRole: 99 },
      { email: 'y@example.com', rootRole: 3, password: 'short' },
    ]) {
      const reply = await stack.admin.post('/api/admin/user-admin', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect((await stack.admin.get('/api/admin/user-admin')).body.users).toHaveLength(2);
    const updated = await stack.admin.put(`/api/admin/user-admin/${created.body.id}`, {
      name: 'Ann B',
      rootRole: 'Viewer',
    });
    expect(updated.body).toMatchObject({ name: 'Ann B', rootRole: 3 });
    expect((await stack.admin.delete(`/api/admin/user-admin/${created.body.id}`)).status).toBe(200);
    expect((await stack.admin.delete(`/api/admin/user-admin/${created.body.id}`)).status).toBe(404);
    expect(await eventTypes('ann@example.com', 2)).toEqual(['user-created', 'user-updated']);
    const deleted = await eventually(
      async () => (await stack.admin.post('/api/admin/events/search', { type: 'user-deleted' })).body.events[0],
    );
    expect(deleted.preData).toMatchObject({ id: created.body.id, email: 'ann@example.com' });
  });
});

describe('login, sessions and profile', () => {
  it('logs in with username or email, counts failures, records seenAt, and logging out ends the session', async () => {
    await stack.admin.post('/api/admin/user-admin', {
      email: 'bob@example.com',
      username: 'bob',
      rootRole: 3,
      password: 'bobs-password',
    });
    const wrong = await httpClient(stack.url).post('/auth/simple/login', { username: 'bob', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.name).toBe('AuthenticationRequired');
    const bob = await loginAs(stack.url, 'bob@example.com', 'bobs-password');
    const me = await bob.get('/api/admin/user');
    expect(me.body.user).toMatchObject({ username: 'bob', loginAttempts: 0 });
    expect(me.body.user.seenAt).not.toBeNull();
    const profile = await bob.get('/api/admin/user/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({
      rootRole: expect.objectContaining({ id: 3, name: 'Viewer', type: 'root' }),
      projects: [],
      groups: [],
      features: [],
      subscriptions: [],
      canChangePassword: true,
    });
    expect((await bob.post('/auth/logout')).status).toBe(200);
    expect((await bob.get('/api/admin/user/profile')).status).toBe(401);
    expect((await httpClient(stack.url).get('/api/admin/user/profile')).status).toBe(401);
  });

  it('lists the projects a user is a member of in the profile', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'profiled', name: 'Profiled' });
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users;
    const bobId = users.find((u: { username: string }) => u.username === 'bob').id;
    expect((await stack.admin.post('/api/admin/projects/profiled/access', { roles: [5], users: [bobId] })).status).toBe(
      200,
    );
    const bob = await loginAs(stack.url, 'bob', 'bobs-password');
    expect((await bob.get('/api/admin/user/profile')).body.projects).toEqual(['profiled']);
  });

  it('refuses further attempts after repeated failures (brute-force protection)', async () => {
    await stack.admin.post('/api/admin/user-admin', { username: 'carol', rootRole: 3, password: 'carols-password' });
    const anonymous = httpClient(stack.url);
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await anonymous.post('/auth/simple/login', { username: 'carol', password: 'guess' })).status).toBe(401);
    const blocked = await anonymous.post('/auth/simple/login', { username: 'carol', password: 'carols-password' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users;
    expect(users.find((u: { username: string }) => u.username === 'carol').loginAttempts).toBe(5);
  });
});

describe('personal access tokens and service accounts', () => {
  it('creates a PAT whose secret is shown once, works as a credential, records seenAt and can be deleted', async () => {
    await stack.admin.post('/api/admin/user-admin', { username: 'dave', rootRole: 1, password: 'daves-password' });
    const dave = await loginAs(stack.url, 'dave', 'daves-password');
    expect((await dave.post('/api/admin/user/tokens', { description: 'ci' })).status).toBe(400);
    expect(
      (await dave.post('/api/admin/user/tokens', { description: 'ci', expiresAt: '2001-01-01T00:00:00Z' })).status,
    ).toBe(400);
    const created = await dave.post('/api/admin/user/tokens', { description: 'ci', expiresAt: '2099-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^user:[0-9a-f]+$/);
    const listed = await dave.get('/api/admin/user/tokens');
    expect(listed.body.pats).toHaveLength(1);
    expect(listed.body.pats[0].secret).toBeUndefined();
    const withPat = httpClient(stack.url, { authorization: created.body.secret });
    expect((await withPat.get('/api/admin/projects')).status).toBe(200);
    const me = await withPat.get('/api/admin/user');
    expect(me.body.user.username).toBe('dave');
    expect(
      (await stack.admin.post('/api/admin/user/tokens', { description: 'x', expiresAt: '2099-01-01T00:00:00Z' }))
        .status,
    ).toBe(403);
    expect((await withPat.get('/api/admin/events')).status).toBe(200);
    // Use is recorded in batches off the request path.
    const seen = await eventually(async () => (await dave.get('/api/admin/user/tokens')).body.pats[0].seenAt, {
      timeoutMs: 8000,
      intervalMs: 250,
    });
    expect(Date.parse(seen)).toBeGreaterThan(Date.now() - 60_000);
    expect((await dave.delete(`/api/admin/user/tokens/${created.body.id}`)).status).toBe(200);
    const revokedAt = Date.now();
    expect((await withPat.get('/api/admin/projects')).status).toBe(401);
    // event-log checks credentials through admin-api over NATS and caches briefly: revoked within a second.
    await eventually(async () => (await withPat.get('/api/admin/events')).status === 401, { timeoutMs: 1000 });
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect(await eventTypes('"description": "ci"', 2)).toEqual(['pat-created', 'pat-deleted']);
  });

  it('manages service accounts and their tokens; an unknown account is 404', async () => {
    const account = await stack.admin.post('/api/admin/service-account', {
      username: 'deployer',
      name: 'Deploy bot',
      rootRole: 2,
    });
    expect(account.status).toBe(201);
    expect(account.body.accountType).toBe('Service Account');
    const empty = await stack.admin.get(`/api/admin/service-account/${account.body.id}/token`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ pats: [] });
    const token = await stack.admin.post(`/api/admin/service-account/${account.body.id}/token`, {
      description: 'deploys',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    expect(token.status).toBe(201);
    const listed = await stack.admin.get(`/api/admin/service-account/${account.body.id}/token`);
    expect(listed.body.pats).toEqual([
      expect.objectContaining({ id: token.body.id, description: 'deploys', userId: account.body.id, seenAt: null }),
    ]);
    const bot = httpClient(stack.url, { authorization: token.body.secret });
    expect((await bot.post('/api/admin/projects/default/features', { name: 'made-by-bot' })).status).toBe(201);
    expect((await bot.get('/api/admin/user-admin')).status).toBe(403);
    expect((await stack.admin.get('/api/admin/service-account/99999/token')).status).toBe(404);
    expect((await stack.admin.get('/api/admin/service-account/99999/token')).body.name).toBe('NotFoundError');
    expect((await stack.anonymous.get(`/api/admin/service-account/${account.body.id}/token`)).status).toBe(401);
    expect(
      (await stack.admin.get('/api/admin/service-account')).body.serviceAccounts.map(
        (s: { username: string }) => s.username,
      ),
    ).toEqual(['deployer']);
    expect((await stack.admin.delete(`/api/admin/service-account/${account.body.id}`)).status).toBe(200);
    expect((await bot.get('/api/admin/projects')).status).toBe(401);
  });
});

describe('invite links and signup', () => {
  it('creates a Viewer linked to the token, and nothing on any error', async () => {
    const link = await stack.admin.post('/api/admin/invite-link/tokens', {
      name: 'team',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    expect(link.status).toBe(201);
    expect(link.body.url).toContain(link.body.secret);
    const secret = link.body.secret;
    const anonymous = httpClient(stack.url);
    expect((await anonymous.get(`/invite/${secret}/validate`)).status).toBe(200);
    const signup = await anonymous.post(`/invite/${secret}/signup`, {
      email: 'eve@example.com',
      name: 'Eve',
      password: 'eves-password',
      username: 'eve',
    });
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({ email: 'eve@example.com', name: 'Eve', username: 'eve', rootRole: 3 });
    const before = (await stack.admin.get('/api/admin/user-admin')).body.users.length;
    expect(
      (
        await anonymous.post(`/invite/${secret}/signup`, {
          email: 'eve@example.com',
          name: 'Eve 2',
          password: 'eves-password',
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await anonymous.post(`/invite/${secret}/signup`, {
          email: 'new@example.com',
          name: 'New',
          password: 'eves-password',
          username: 'EVE',
        })
      ).status,
    ).toBe(409);
    const missing = await anonymous.post(`/invite/${secret}/signup`, { email: 'x@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body.name).toBe('ValidationError');
    expect(
      (await anonymous.post('/invite/nope/signup', { email: 'y@example.com', name: 'Y', password: 'long-enough' }))
        .status,
    ).toBe(404);
    await stack.admin.put(`/api/admin/invite-link/tokens/${secret}`, { enabled: false });
    const disabled = await anonymous.post(`/invite/${secret}/signup`, {
      email: 'z@example.com',
      name: 'Z',
      password: 'long-enough',
    });
    expect(disabled.status).toBe(400);
    expect(disabled.body.message).toContain('disabled');
    expect((await stack.admin.get('/api/admin/user-admin')).body.users.length).toBe(before);
    const token = await stack.admin.get(`/api/admin/invite-link/tokens/${secret}`);
    expect(token.body.users.map((u: { email: string }) => u.email)).toEqual(['eve@example.com']);
    const types = await eventTypes('public-signup-token', 3);
    expect(types).toEqual([
      'public-signup-token-created',
      'public-signup-token-user-added',
      'public-signup-token-updated',
    ]);
  });
});

describe('roles, groups and project access', () => {
  it('creates custom roles with the role-* events and refuses permissions of the wrong kind', async () => {
    const root = await stack.admin.post('/api/admin/roles', {
      name: 'Segment keeper',
      type: 'root-custom',
      permissions: [{ name: 'CREATE_SEGMENT' }],
    });
    expect(root.status).toBe(200);
    const project = await stack.admin.post('/api/admin/roles', {
      name: 'Dev toggler',
      type: 'custom',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }, { name: 'UPDATE_FEATURE' }],
    });
    expect(project.status).toBe(200);
    expect(
      (await stack.admin.post('/api/admin/roles', { name: 'Bad', type: 'custom', permissions: [{ name: 'ADMIN' }] }))
        .status,
    ).toBe(400);
    expect((await stack.admin.post('/api/admin/roles', { name: 'Dev toggler', type: 'custom' })).status).toBe(409);
    expect(
      (
        await stack.admin.put(`/api/admin/roles/${project.body.id}`, {
          name: 'Dev toggler',
          description: 'x',
          permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }],
        })
      ).status,
    ).toBe(200);
    expect((await stack.admin.delete('/api/admin/roles/1')).status).toBe(400);
    expect(await eventTypes('Dev toggler', 2)).toEqual(['role-created', 'role-updated']);
  });

  it('manages groups and their members, and gives a group a project role through the deprecated route', async () => {
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users;
    const eve = users.find((u: { username: string }) => u.username === 'eve');
    const group = await stack.admin.post('/api/admin/groups', {
      name: 'Frontenders',
      users: [{ user: { id: eve.id } }],
    });
    expect(group.status).toBe(201);
    expect(group.body.users.map((u: { user: { id: number } }) => u.user.id)).toEqual([eve.id]);
    const assigned = await stack.admin.put(`/api/admin/projects/default/groups/${group.body.id}/roles/5`);
    expect(assigned.status).toBe(200);
    expect(assigned.text).toBe('');
    expect((await stack.admin.put(`/api/admin/projects/nope/groups/${group.body.id}/roles/5`)).status).toBe(404);
    expect((await stack.admin.put('/api/admin/projects/default/groups/99999/roles/5')).status).toBe(404);
    expect((await stack.admin.put(`/api/admin/projects/default/groups/${group.body.id}/roles/99999`)).status).toBe(404);
    expect((await stack.anonymous.put(`/api/admin/projects/default/groups/${group.body.id}/roles/5`)).status).toBe(401);
    const access = await stack.admin.get('/api/admin/projects/default/access');
    expect(access.body.groups).toEqual([expect.objectContaining({ id: group.body.id, roles: [5] })]);
    const evesSession = await loginAs(stack.url, 'eve', 'eves-password');
    expect((await evesSession.post('/api/admin/projects/default/features', { name: 'eves-flag' })).status).toBe(201);
    expect(
      (await stack.admin.put(`/api/admin/projects/default/groups/${group.body.id}/roles`, { roles: [4] })).status,
    ).toBe(200);
    expect((await stack.admin.delete(`/api/admin/projects/default/groups/${group.body.id}/roles`)).status).toBe(200);
    expect((await evesSession.post('/api/admin/projects/default/features', { name: 'eves-second' })).status).toBe(403);
    for (const type of [
      'group-created',
      'group-user-added',
      'project-access-group-roles-updated',
      'project-access-group-roles-deleted',
    ]) {
      await eventually(
        async () => (await stack.admin.post('/api/admin/events/search', { type })).body.events.length > 0,
      );
    }
  });

  it("sets a project's whole access with Unleash's PUT: the named get their roles, the others lose theirs", async () => {
    await stack.admin.post('/api/admin/projects', { id: 'configured', name: 'Configured' });
    const made = async (username: string) =>
      (await stack.admin.post('/api/admin/user-admin', { username, rootRole: 3 })).body.id as number;
    const [kim, lou] = [await made('kim'), await made('lou')];
    const group = (await stack.admin.post('/api/admin/groups', { name: 'Configurers', users: [] })).body.id as number;
    const access = '/api/admin/projects/configured/access';
    // Lou holds Member (5) beforehand; the configuration below names only Kim and the group.
    expect((await stack.admin.post(access, { roles: [5], users: [lou] })).status).toBe(200);
    const configuration = {
      roles: [
        { id: 4, users: [kim] },
        { id: 5, users: [kim], groups: [group] },
      ],
    };
    expect((await stack.admin.put(access, configuration)).status).toBe(200);
    const after = (await stack.admin.get(access)).body;
    expect(after.users.map((user: { id: number; roles: number[] }) => [user.id, user.roles])).toEqual([[kim, [4, 5]]]);
    expect(after.groups.map((entry: { id: number; roles: number[] }) => [entry.id, entry.roles])).toEqual([
      [group, [5]],
    ]);
    // The same configuration again changes nothing and records nothing; an unknown user changes nothing (404).
    expect((await stack.admin.put(access, configuration)).status).toBe(200);
    expect((await stack.admin.put(access, { roles: [{ id: 4, users: [kim, 99_999] }] })).status).toBe(404);
    expect((await stack.admin.get(access)).body.users).toHaveLength(1);
    // A viewer, a client token and a body with prototype keys reach nothing: refused, and the access is as it was.
    await stack.admin.post('/api/admin/user-admin', { username: 'vera', password: 'veras-password', rootRole: 3 });
    const viewer = await loginAs(stack.url, 'vera', 'veras-password');
    expect((await viewer.put(access, { roles: [{ id: 4, users: [lou] }] })).status).toBe(403);
    const clientToken = (
      await stack.admin.post('/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development' })
    ).body.secret as string;
    expect((await httpClient(stack.url, { authorization: clientToken }).put(access, { roles: [] })).status).toBe(403);
    const polluted = await stack.admin.put(access, JSON.parse('{"roles":[],"__proto__":{"isAdmin":true}}'));
    expect(polluted.status).toBe(400);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect((await stack.admin.get(access)).body.users.map((user: { id: number }) => user.id)).toEqual([kim]);
    // A flag made afterwards marks the end: once it is in the log, every access event before it is too.
    await stack.admin.post('/api/admin/projects/configured/features', { name: 'configured-marker' });
    const types = await eventually(async () => {
      const reply = await stack.admin.post('/api/admin/events/search', { project: 'configured' });
      const found = (reply.body.events as { type: string }[]).map((event) => event.type).reverse();
      return found.includes('feature-created') && found;
    });
    expect(types).toEqual(['project-created', 'project-access-added', 'project-access-updated', 'feature-created']);
  });
});

describe('password hashing', () => {
  it('stores new passwords at the cost PASSWORD_HASHING sets, and at argon2 defaults when it is unset', async () => {
    const { sql } = await import('@bunting/platform');
    const hashes = async (target: TestStack) =>
      (
        await target.db.query(
          sql.unsafe`select password_hash as hash from admin.users where password_hash is not null order by id`,
        )
      ).rows.map((row) => String((row as { hash: string }).hash));
    // This file's stack runs at the cost the test isolation sets.
    await stack.admin.post('/api/admin/user-admin', { username: 'hashed', rootRole: 3, password: 'hashed-password-1' });
    const made = await hashes(stack);
    expect(made.length).toBeGreaterThanOrEqual(2);
    for (const hash of made) expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(
      (await httpClient(stack.url).post('/auth/simple/login', { username: 'hashed', password: 'hashed-password-1' }))
        .status,
    ).toBe(200);

    const unset = await startTestStack({ env: { PASSWORD_HASHING: '' } });
    try {
      expect(await hashes(unset)).toEqual([expect.stringMatching(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/)]);
      expect(
        (await loginAs(unset.url, 'admin', 'unleash4all').then((session) => session.get('/api/admin/user'))).status,
      ).toBe(200);
    } finally {
      await unset.dispose();
    }
  });
});
