import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const project = '/api/admin/projects/orbit';
const clientToken = 'orbit:development.overview-client';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  await stack.admin.post('/api/admin/projects', { id: 'orbit', name: 'Orbit' });
});
afterAll(() => stack?.dispose());

describe("a project's overview", () => {
  it('follows onboarding from no flag to a first flag to SDK metrics, with counts by type and its settings', async () => {
    expect((await stack.admin.get(`${project}/overview`)).body.onboardingStatus).toEqual({
      status: 'onboarding-started',
    });
    await stack.admin.post(`${project}/features`, { name: 'launch', type: 'release' });
    await stack.admin.post(`${project}/features`, { name: 'abort', type: 'kill-switch' });
    await stack.admin.post(`${project}/features`, { name: 'countdown', type: 'release' });
    await stack.admin.put(`${project}/environments/production/change-requests/config`, {
      changeRequestsEnabled: true,
      requiredApprovals: 2,
    });
    const overview = (await stack.admin.get(`${project}/overview`)).body;
    expect(overview).toMatchObject({
      version: 1,
      name: 'Orbit',
      onboardingStatus: { status: 'first-flag-created', feature: 'launch' },
      health: 100,
      technicalDebt: 0,
      featureTypeCounts: [
        { type: 'kill-switch', count: 1 },
        { type: 'release', count: 2 },
      ],
      linkTemplates: [],
    });
    expect(overview.environments).toEqual([
      {
        environment: 'development',
        changeRequestsEnabled: false,
        defaultStrategy: expect.objectContaining({ name: 'flexibleRollout' }),
      },
      {
        environment: 'production',
        changeRequestsEnabled: true,
        defaultStrategy: expect.objectContaining({ name: 'flexibleRollout' }),
      },
    ]);

    const sdk = httpClient(stack.url, { authorization: clientToken });
    const now = new Date().toISOString();
    await sdk.post('/api/client/metrics', {
      appName: 'rocket',
      instanceId: 'r-1',
      bucket: { start: now, stop: now, toggles: { launch: { yes: 1, no: 0 } } },
    });
    await eventually(
      async () => (await stack.admin.get(`${project}/overview`)).body.onboardingStatus.status === 'onboarded',
    );
    const listed = (await stack.admin.get('/api/admin/projects')).body.projects.find(
      (entry: { id: string }) => entry.id === 'orbit',
    );
    expect(listed).toMatchObject({
      technicalDebt: 0,
      onboardingStatus: { status: 'onboarded' },
      owners: [{ ownerType: 'system' }],
    });
    expect(Date.parse(listed.lastReportedFlagUsage)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(listed.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(listed.createdAt));
  });

  it("lists the project's environments with its own token and enabled-flag counts and required approvals", async () => {
    await stack.admin.post(`${project}/features/launch/environments/development/on`);
    const { body } = await stack.admin.get('/api/admin/environments/project/orbit');
    const byName = Object.fromEntries(
      body.environments.map((environment: { name: string }) => [environment.name, environment]),
    );
    expect(byName.development).toMatchObject({
      projectApiTokenCount: 1,
      projectEnabledToggleCount: 1,
      visible: true,
      requiredApprovals: null,
    });
    expect(byName.production).toMatchObject({
      projectApiTokenCount: 0,
      projectEnabledToggleCount: 0,
      requiredApprovals: 2,
    });
    expect((await stack.admin.get('/api/admin/environments/project/nowhere')).status).toBe(404);
  });
});

describe('who may be given access, and who administers', () => {
  it('lists people and groups for pickers, counts admins, and gives a user their roles in a project', async () => {
    const user = await stack.admin.post('/api/admin/user-admin', {
      username: 'astro',
      email: 'astro@example.com',
      rootRole: 'Viewer',
      password: 'a-long-password-1',
    });
    await stack.admin.post('/api/admin/groups', { name: 'Crew', users: [{ user: { id: user.body.id } }] });
    const access = (await stack.admin.get('/api/admin/user-admin/access')).body;
    expect(access.users).toContainEqual(
      expect.objectContaining({ id: user.body.id, username: 'astro', email: 'astro@example.com', accountType: 'User' }),
    );
    expect(access.groups).toContainEqual(expect.objectContaining({ name: 'Crew', userCount: 1 }));
    expect((await stack.admin.get('/api/admin/user-admin/admin-count')).body).toEqual({
      password: 1,
      noPassword: 0,
      service: 0,
    });

    await stack.admin.post(`${project}/access`, { roles: [5], users: [user.body.id] });
    const astro = await loginAs(stack.url, 'astro', 'a-long-password-1');
    expect((await astro.get('/api/admin/user/roles?projectId=orbit')).body).toEqual({
      version: 1,
      roles: [expect.objectContaining({ id: 5, name: 'Member' })],
    });
    expect((await astro.get('/api/admin/user/roles')).status).toBe(400);
    expect((await astro.get('/api/admin/user/profile')).body).toMatchObject({
      projects: ['orbit'],
      groups: [expect.objectContaining({ name: 'Crew' })],
      canChangePassword: true,
    });
  });
});
