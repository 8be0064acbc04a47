import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

/** Smaller endpoints of Unleash's admin API that tools and Unleash Edge call. */
let stack: TestStack;
const clientToken = 'default:development.misc-client';
const frontendToken = 'default:production.misc-frontend';
const base = '/api/admin/projects/default/features';
let strategyId: string;
let segmentId: number;

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, INIT_FRONTEND_API_TOKENS: frontendToken },
  });
  await stack.admin.post('/api/admin/context', { name: 'tier' });
  await stack.admin.post(base, { name: 'tiered' });
  const strategy = await stack.admin.post(`${base}/tiered/environments/development/strategies`, {
    name: 'default',
    constraints: [{ contextName: 'tier', operator: 'IN', values: ['gold'] }],
  });
  strategyId = strategy.body.id;
  segmentId = (await stack.admin.post('/api/admin/segments', { name: 'staff', constraints: [] })).body.id;
});
afterAll(() => stack?.dispose());

describe('GET /api/admin/ui-config', () => {
  it('tells tools which Unleash API version is spoken and how sign-in works', async () => {
    const { status, body } = await stack.admin.get('/api/admin/ui-config');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      version: '8.2.0',
      baseUriPath: '',
      disablePasswordAuth: false,
      versionInfo: { current: { oss: '8.2.0' }, isLatest: true },
    });
    expect(typeof body.unleashUrl).toBe('string');
    expect((await stack.anonymous.get('/api/admin/ui-config')).status).toBe(401);
  });
});

describe('POST /api/admin/constraints/validate', () => {
  it('answers 204 for a good constraint and 400 naming what is wrong otherwise', async () => {
    expect(
      (
        await stack.admin.post('/api/admin/constraints/validate', {
          contextName: 'tier',
          operator: 'IN',
          values: ['gold'],
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await stack.admin.post('/api/admin/constraints/validate', {
          contextName: 'currentTime',
          operator: 'DATE_AFTER',
          value: '2030-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(204);
    for (const good of [
      { contextName: 'email', operator: 'REGEX', value: '^[a-z]+@example\\.com$', caseInsensitive: true },
      { contextName: 'version', operator: 'SEMVER_GTE', value: '1.2.3' },
      { contextName: 'version', operator: 'SEMVER_LTE', value: '2.0.0-beta.1' },
      { contextName: 'remoteAddress', operator: 'IN_CIDR', values: ['10.0.0.0/8', '2001:db8::/32', '192.168.1.7'] },
    ]) {
      expect((await stack.admin.post('/api/admin/constraints/validate', good)).status, JSON.stringify(good)).toBe(204);
    }
    for (const [bad, field] of [
      [{ contextName: 'email', operator: 'REGEX', value: '(unclosed' }, 'value'],
      [{ contextName: 'version', operator: 'SEMVER_LTE', value: 'v1.0.0' }, 'value'],
      [{ contextName: 'remoteAddress', operator: 'IN_CIDR', values: ['10.0.0.0/8', 'office'] }, 'values'],
    ] as const) {
      const reply = await stack.admin.post('/api/admin/constraints/validate', bad);
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expect(reply.body.details?.[0]?.path, JSON.stringify(reply.body)).toContain(field);
    }
    for (const bad of [
      { contextName: 'tier', operator: 'LIKE', values: ['gold'] },
      { contextName: 'currentTime', operator: 'DATE_AFTER', value: 'tomorrow' },
      { contextName: 'version', operator: 'SEMVER_GT', value: 'one' },
      { operator: 'IN', values: [] },
    ]) {
      const reply = await stack.admin.post('/api/admin/constraints/validate', bad);
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expect(reply.body.name).toBe('ValidationError');
    }
  });
});

describe('POST /edge/validate', () => {
  it('returns the valid SDK tokens among those given, with what each may see', async () => {
    const reply = await stack.anonymous.post('/edge/validate', {
      tokens: [clientToken, frontendToken, 'default:development.made-up', stack.adminToken],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.tokens).toEqual([
      { token: clientToken, type: 'client', projects: ['default'], environment: 'development' },
      { token: frontendToken, type: 'frontend', projects: ['default'], environment: 'production' },
    ]);
    expect((await stack.anonymous.post('/edge/validate', { tokens: 'all' })).status).toBe(400);
  });
});

describe('strategies by context field and by segment', () => {
  it('lists the strategies whose constraints use a context field', async () => {
    const { body } = await stack.admin.get('/api/admin/context/tier/strategies');
    expect(body.strategies).toEqual([
      {
        id: strategyId,
        featureName: 'tiered',
        projectId: 'default',
        environment: 'development',
        strategyName: 'default',
      },
    ]);
    expect((await stack.admin.get('/api/admin/context/userId/strategies')).body.strategies).toEqual([]);
  });

  it('sets and reads the segments of one strategy', async () => {
    expect((await stack.admin.get(`/api/admin/segments/strategies/${strategyId}`)).body.segments).toEqual([]);
    const set = await stack.admin.post('/api/admin/segments/strategies', {
      projectId: 'default',
      strategyId,
      environmentId: 'development',
      segmentIds: [segmentId],
    });
    expect(set.status).toBe(201);
    const { body } = await stack.admin.get(`/api/admin/segments/strategies/${strategyId}`);
    expect(body.segments.map((segment: { name: string }) => segment.name)).toEqual(['staff']);
    const strategy = await stack.admin.get(`${base}/tiered/environments/development/strategies/${strategyId}`);
    expect(strategy.body.segments).toEqual([segmentId]);
    expect(strategy.body.constraints).toHaveLength(1);
    await eventually(
      async () =>
        (await stack.admin.post('/api/admin/events/search', { type: 'feature-strategy-update' })).body.events.length ===
        1,
    );
    expect(
      (
        await stack.admin.post('/api/admin/segments/strategies', {
          projectId: 'default',
          strategyId: 'nope',
          environmentId: 'development',
          segmentIds: [],
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await stack.admin.post('/api/admin/segments/strategies', {
          projectId: 'default',
          strategyId,
          environmentId: 'development',
          segmentIds: [9999],
        })
      ).status,
    ).toBe(400);
    const sdk = httpClient(stack.url, { authorization: clientToken });
    expect(
      (
        await sdk.post('/api/admin/segments/strategies', {
          projectId: 'default',
          strategyId,
          environmentId: 'development',
          segmentIds: [],
        })
      ).status,
    ).toBe(403);
  });
});

describe('project helpers for dependencies, archiving and creators', () => {
  it('tells whether dependencies exist, which variants a parent offers, and what archiving would break', async () => {
    expect((await stack.admin.get('/api/admin/projects/default/dependencies')).body).toBe(false);
    await stack.admin.post(base, { name: 'parent-flag' });
    await stack.admin.post(base, { name: 'child-flag' });
    await stack.admin.put(`${base}/parent-flag/environments/development/variants`, [
      { name: 'green', weight: 1000, weightType: 'variable', stickiness: 'default' },
    ]);
    await stack.admin.post(`${base}/parent-flag/environments/production/strategies`, {
      name: 'flexibleRollout',
      parameters: { rollout: '100' },
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    });
    await stack.admin.post(`${base}/child-flag/dependencies`, { feature: 'parent-flag' });
    expect((await stack.admin.get('/api/admin/projects/default/dependencies')).body).toBe(true);
    expect((await stack.admin.get(`${base}/parent-flag/parent-variants`)).body).toEqual(['blue', 'green']);
    const alone = await stack.admin.post('/api/admin/projects/default/archive/validate', { features: ['parent-flag'] });
    expect(alone.body).toEqual({ parentsWithChildFeatures: ['parent-flag'], hasDeletedDependencies: true });
    const together = await stack.admin.post('/api/admin/projects/default/archive/validate', {
      features: ['parent-flag', 'child-flag'],
    });
    expect(together.body).toEqual({ parentsWithChildFeatures: [], hasDeletedDependencies: true });
    const unrelated = await stack.admin.post('/api/admin/projects/default/archive/validate', { features: ['tiered'] });
    expect(unrelated.body).toEqual({ parentsWithChildFeatures: [], hasDeletedDependencies: false });
    expect((await stack.admin.post('/api/admin/projects/default/archive/validate', { features: 'all' })).status).toBe(
      400,
    );
  });

  it('lists who created the project flags', async () => {
    const { body } = await stack.admin.get('/api/admin/projects/default/flag-creators');
    expect(body).toEqual([{ id: -42, name: 'admin' }]);
    // Instance-wide, as the search page asks.
    expect((await stack.admin.get('/api/admin/flag-creators?limit=10000')).body).toEqual({
      flagCreators: [{ id: -42, name: 'admin' }],
      total: 1,
    });
    // q matches a name anywhere in it; any other parameter narrows nothing, as in Unleash.
    expect((await stack.admin.get('/api/admin/flag-creators?q=dmi')).body.total).toBe(1);
    expect((await stack.admin.get('/api/admin/flag-creators?q=nobody')).body).toEqual({
      flagCreators: [],
      total: 0,
    });
    expect((await stack.admin.get('/api/admin/flag-creators?query=nobody')).body.total).toBe(1);
    expect((await stack.admin.get('/api/admin/flag-creators?q=%25')).body.total).toBe(0);
    expect((await stack.admin.get('/api/admin/flag-creators?limit=0')).status).toBe(400);
  });
});

describe('inactive users', () => {
  it('lists users unseen for 180 days and deletes only those among the ids given', async () => {
    const { sql } = await import('@bunting/platform');
    const stale = await stack.admin.post('/api/admin/user-admin', { username: 'long-gone', rootRole: 3 });
    const fresh = await stack.admin.post('/api/admin/user-admin', { username: 'just-here', rootRole: 3 });
    // Time passes for one of them.
    await stack.db.query(
      sql.unsafe`update admin.users set created_at = now() - interval '400 days' where id = ${stale.body.id}`,
    );
    const inactive = await stack.admin.get('/api/admin/user-admin/inactive');
    expect(inactive.body.inactiveUsers.map((user: { username: string }) => user.username)).toEqual(['long-gone']);
    expect(
      (await stack.admin.post('/api/admin/user-admin/inactive/delete', { ids: [stale.body.id, fresh.body.id] })).status,
    ).toBe(200);
    expect((await stack.admin.get(`/api/admin/user-admin/${stale.body.id}`)).status).toBe(404);
    expect((await stack.admin.get(`/api/admin/user-admin/${fresh.body.id}`)).status).toBe(200);
    expect((await stack.admin.post('/api/admin/user-admin/inactive/delete', { ids: 'all' })).status).toBe(400);
  });
});

describe('GET /api/admin/personal-dashboard', () => {
  it('shows a user their projects, their flags, the admins and their project owners', async () => {
    const { loginAs } = await import('@bunting/testing');
    const created = await stack.admin.post('/api/admin/user-admin', {
      username: 'dash-user',
      name: 'Dash User',
      rootRole: 2,
      password: 'dash-user-password',
    });
    await stack.admin.post('/api/admin/projects', { id: 'dash', name: 'Dash' });
    await stack.admin.post('/api/admin/projects/dash/access', { roles: [4], users: [{ id: created.body.id }] });
    await stack.admin.post('/api/admin/projects/dash/features', { name: 'someone-elses' });
    const user = await loginAs(stack.url, 'dash-user', 'dash-user-password');
    expect((await user.post('/api/admin/projects/dash/features', { name: 'my-own' })).status).toBe(201);
    expect((await user.post('/api/admin/projects/default/features/tiered/favorites')).status).toBe(200);

    const { status, body } = await user.get('/api/admin/personal-dashboard');
    expect(status).toBe(200);
    expect(body.projects).toEqual([
      { id: 'dash', name: 'Dash', health: 100, technicalDebt: 0, memberCount: 1, featureCount: 2 },
    ]);
    expect(body.flags).toEqual([
      { name: 'my-own', project: 'dash', type: 'release' },
      { name: 'tiered', project: 'default', type: 'release' },
    ]);
    expect(body.admins.map((admin: { username: string }) => admin.username)).toContain('admin');
    expect(body.projectOwners).toEqual([expect.objectContaining({ ownerType: 'user', name: 'Dash User' })]);

    const forToken = await stack.admin.get('/api/admin/personal-dashboard');
    expect(forToken.body.projects).toEqual([]);
    expect(forToken.body.flags).toEqual([]);
  });
});
