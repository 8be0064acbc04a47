import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { PROTECTED_ENVIRONMENTS: 'production' } });
});
afterAll(() => stack?.dispose());

async function eventsOfType(type: string) {
  const reply = await stack.admin.post('/api/admin/events/search', { type });
  return reply.body.events as { type: string; environment: string | null; data: any }[];
}

describe('environments', () => {
  it('ships development and production on a fresh install', async () => {
    const reply = await stack.admin.get('/api/admin/environments');
    expect(reply.status).toBe(200);
    expect(reply.body.version).toBe(1);
    expect(reply.body.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
  });

  it('creates an environment with 201, a location header and defaults', async () => {
    const reply = await stack.admin.post('/api/admin/environments', { name: 'staging.eu-1', type: 'preproduction' });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('location')).toBe('/api/admin/environments/staging.eu-1');
    expect(reply.body).toMatchObject({ name: 'staging.eu-1', type: 'preproduction', enabled: true, protected: false });
    expect(typeof reply.body.sortOrder).toBe('number');
    const events = await eventually(async () => {
      const found = await eventsOfType('environment-created');
      return found.length > 0 && found;
    });
    expect(events[0]!.environment).toBe('staging.eu-1');
  });

  it('honours enabled false and sortOrder, and accepts any non-empty type', async () => {
    const reply = await stack.admin.post('/api/admin/environments', {
      name: 'qa',
      type: 'my-own-type',
      enabled: false,
      sortOrder: 7,
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ name: 'qa', type: 'my-own-type', enabled: false, sortOrder: 7 });
  });

  it('refuses a name breaking the pattern, an empty type and wrong types with 400 naming the field', async () => {
    for (const [body, field] of [
      [{ name: 'has space', type: 'test' }, 'name'],
      [{ name: 'ok-name', type: '' }, 'type'],
      [{ name: 'ok-name', type: 'test', enabled: 'yes' }, 'enabled'],
      [{ name: 'ok-name', type: 'test', sortOrder: 1.5 }, 'sortOrder'],
      [{ type: 'test' }, 'name'],
    ] as const) {
      const reply = await stack.admin.post('/api/admin/environments', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.name).toBe('ValidationError');
      expect(typeof reply.body.id).toBe('string');
      expect(reply.body.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    const list = await stack.admin.get('/api/admin/environments');
    expect(list.body.environments.map((e: { name: string }) => e.name)).not.toContain('ok-name');
  });

  it('answers 409 NameExistsError for a duplicate and 401 without credentials', async () => {
    const duplicate = await stack.admin.post('/api/admin/environments', { name: 'development', type: 'development' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.name).toBe('NameExistsError');
    const anonymous = await stack.anonymous.post('/api/admin/environments', { name: 'x1', type: 'test' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.name).toBe('AuthenticationRequired');
  });

  it('updates, toggles, reorders and deletes, but never a protected environment', async () => {
    await stack.admin.post('/api/admin/environments', { name: 'temp', type: 'test' });
    const updated = await stack.admin.put('/api/admin/environments/update/temp', {
      type: 'development',
      sortOrder: 42,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ type: 'development', sortOrder: 42 });
    expect((await stack.admin.post('/api/admin/environments/temp/off')).status).toBe(204);
    expect((await stack.admin.get('/api/admin/environments/temp')).body.enabled).toBe(false);
    expect((await stack.admin.put('/api/admin/environments/sort-order', { temp: 1 })).status).toBe(200);
    expect((await stack.admin.get('/api/admin/environments/temp')).body.sortOrder).toBe(1);
    expect((await stack.admin.delete('/api/admin/environments/temp')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/environments/temp')).status).toBe(404);
    const refused = await stack.admin.delete('/api/admin/environments/production');
    expect(refused.status).toBe(400);
    expect((await stack.admin.get('/api/admin/environments/production')).body.protected).toBe(true);
  });

  it('clones an environment with its flags, strategies, variants and segment links, evaluated alike', async () => {
    const segment = await stack.admin.post('/api/admin/segments', {
      name: 'clone-beta',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
    });
    const base = '/api/admin/projects/default/features';
    await stack.admin.post(base, { name: 'cloned-flag' });
    await stack.admin.post(`${base}/cloned-flag/environments/development/strategies`, {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default', groupId: 'cloned-flag' },
      segments: [segment.body.id],
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    });
    await stack.admin.post(`${base}/cloned-flag/environments/development/on`);

    const cloned = await stack.admin.post('/api/admin/environments/development/clone', {
      name: 'staging',
      type: 'test',
    });
    expect(cloned.status).toBe(201);
    expect(cloned.body).toMatchObject({ name: 'staging', type: 'test' });
    const feature = (await stack.admin.get(`${base}/cloned-flag`)).body;
    const staging = feature.environments.find((environment: { name: string }) => environment.name === 'staging');
    const development = feature.environments.find(
      (environment: { name: string }) => environment.name === 'development',
    );
    expect(staging.enabled).toBe(true);
    expect(staging.strategies).toHaveLength(1);
    expect(staging.strategies[0].id).not.toBe(development.strategies[0].id);
    expect(staging.strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      segments: [segment.body.id],
      variants: [{ name: 'blue' }],
    });

    const token = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'staging-fe',
      type: 'frontend',
      environment: 'staging',
    });
    const frontend = httpClient(stack.url, { authorization: token.body.secret });
    const inSegment = await eventually(async () => {
      const toggles = (await frontend.get('/api/frontend?userId=u1')).body.toggles as {
        name: string;
        variant: { name: string };
      }[];
      return toggles.find((toggle) => toggle.name === 'cloned-flag');
    });
    expect(inSegment.variant.name).toBe('blue');
    const outside = (await frontend.get('/api/frontend?userId=u2')).body.toggles as { name: string }[];
    expect(outside.map((toggle) => toggle.name)).not.toContain('cloned-flag');

    expect(
      (await stack.admin.post('/api/admin/environments/development/clone', { name: 'staging', type: 'test' })).status,
    ).toBe(409);
    expect(
      (await stack.admin.post('/api/admin/environments/nowhere/clone', { name: 'elsewhere', type: 'test' })).status,
    ).toBe(404);
    expect((await stack.admin.get('/api/admin/environments/elsewhere')).status).toBe(404);
  });
});
