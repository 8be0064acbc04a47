import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects/default/features', { name: 'tagged-flag' });
});
afterAll(() => stack?.dispose());

async function eventTypes(filter: object, count: number) {
  return eventually(async () => {
    const reply = await stack.admin.post('/api/admin/events/search', filter);
    const types = (reply.body.events as { type: string }[]).map((e) => e.type).reverse();
    return types.length >= count && types;
  });
}

const TEAM_COLOR = '#1F8A70';

describe('tag types, tags and feature tags', () => {
  it('answers an empty list for the tags of an unknown feature', async () => {
    const reply = await stack.admin.get('/api/admin/features/does-not-exist/tags');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ version: 1, tags: [] });
  });

  it('creates tag types and tags features, writing tag-created and feature-tagged once', async () => {
    expect(
      (await stack.admin.post('/api/admin/tag-types', { name: 'team', description: 'owning team', color: TEAM_COLOR }))
        .status,
    ).toBe(201);
    expect((await stack.admin.post('/api/admin/tag-types', { name: 'team' })).status).toBe(409);
    expect((await stack.admin.post('/api/admin/tag-types', { name: 'x' })).status).toBe(400);
    const tagged = await stack.admin.post('/api/admin/features/tagged-flag/tags', { type: 'team', value: 'payments' });
    expect(tagged.status).toBe(201);
    expect(tagged.body).toEqual({ type: 'team', value: 'payments' });
    expect(
      (await stack.admin.post('/api/admin/features/tagged-flag/tags', { type: 'team', value: 'payments' })).status,
    ).toBe(201);
    expect(
      (await stack.admin.post('/api/admin/features/tagged-flag/tags', { type: 'nope', value: 'payments' })).status,
    ).toBe(400);
    expect((await stack.admin.post('/api/admin/features/tagged-flag/tags', { type: 'team', value: 'x' })).status).toBe(
      400,
    );
    expect(
      (await stack.admin.post('/api/admin/features/tagged-flag/tags', { type: 'team', value: 'v'.repeat(51) })).status,
    ).toBe(400);
    expect(
      (await stack.admin.post('/api/admin/features/missing-flag/tags', { type: 'team', value: 'payments' })).status,
    ).toBe(404);
    const list = await stack.admin.get('/api/admin/features/tagged-flag/tags');
    expect(list.body).toEqual({ version: 1, tags: [{ value: 'payments', type: 'team', color: TEAM_COLOR }] });
    expect(await eventTypes({ feature: 'tagged-flag' }, 2)).toEqual(['feature-created', 'feature-tagged']);
    expect(await eventTypes({ type: 'tag-created' }, 1)).toEqual(['tag-created']);
  });

  it('bulk-updates and removes feature tags', async () => {
    const bulk = await stack.admin.put('/api/admin/features/tagged-flag/tags', {
      addedTags: [{ type: 'simple', value: 'beta' }],
      removedTags: [{ type: 'team', value: 'payments' }],
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.tags).toEqual([{ value: 'beta', type: 'simple', color: null }]);
    expect((await stack.admin.delete('/api/admin/features/tagged-flag/tags/simple/beta')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/features/tagged-flag/tags')).body.tags).toEqual([]);
    expect(await eventTypes({ feature: 'tagged-flag' }, 5)).toEqual([
      'feature-created',
      'feature-tagged',
      'feature-tagged',
      'feature-untagged',
      'feature-untagged',
    ]);
  });
});

describe('favorites', () => {
  it('marks a project favorite with 200 and no body, 404 for an unknown project, 401 without credentials', async () => {
    const reply = await stack.admin.post('/api/admin/projects/default/favorites');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect((await stack.admin.get('/api/admin/projects')).body.projects[0].favorite).toBe(true);
    expect((await stack.admin.post('/api/admin/projects/default/favorites')).status).toBe(200);
    const missing = await stack.admin.post('/api/admin/projects/nope/favorites');
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    expect((await stack.anonymous.post('/api/admin/projects/default/favorites')).status).toBe(401);
    expect((await stack.admin.delete('/api/admin/projects/default/favorites')).status).toBe(200);
    expect(await eventTypes({ project: 'default', query: 'favorited' }, 2)).toEqual([
      'project-favorited',
      'project-unfavorited',
    ]);
  });

  it('favorites features', async () => {
    expect((await stack.admin.post('/api/admin/projects/default/features/tagged-flag/favorites')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/projects/default/features/tagged-flag')).body.favorite).toBe(true);
    expect((await stack.admin.post('/api/admin/projects/default/features/nope/favorites')).status).toBe(404);
  });
});

describe('segments and context fields', () => {
  it('creates, updates and deletes segments; one in use cannot be deleted', async () => {
    const created = await stack.admin.post('/api/admin/segments', {
      name: 'beta-users',
      description: 'beta',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'beta-users',
      constraints: [{ contextName: 'userId', values: ['u1'] }],
    });
    expect((await stack.admin.post('/api/admin/segments', { name: 'beta-users', constraints: [] })).status).toBe(409);
    expect((await stack.admin.post('/api/admin/segments', { name: 'no-constraints-key' })).status).toBe(400);
    expect(
      (await stack.admin.put(`/api/admin/segments/${created.body.id}`, { name: 'beta-users', constraints: [] })).status,
    ).toBe(204);
    const strategy = await stack.admin.post(
      '/api/admin/projects/default/features/tagged-flag/environments/development/strategies',
      { name: 'default', segments: [created.body.id] },
    );
    expect(strategy.body.segments).toEqual([created.body.id]);
    expect((await stack.admin.delete(`/api/admin/segments/${created.body.id}`)).status).toBe(409);
    await stack.admin.delete(
      `/api/admin/projects/default/features/tagged-flag/environments/development/strategies/${strategy.body.id}`,
    );
    expect((await stack.admin.delete(`/api/admin/segments/${created.body.id}`)).status).toBe(204);
    expect(await eventTypes({ query: 'segment-' }, 3)).toEqual([
      'segment-created',
      'segment-updated',
      'segment-deleted',
    ]);
  });

  it('manages context fields and enforces legal values in constraints', async () => {
    const created = await stack.admin.post('/api/admin/context', {
      name: 'tenant',
      legalValues: [{ value: 'acme' }, { value: 'globex' }],
    });
    expect(created.status).toBe(201);
    expect((await stack.admin.post('/api/admin/context', { name: 'tenant' })).status).toBe(409);
    const strategies = '/api/admin/projects/default/features/tagged-flag/environments/development/strategies';
    expect(
      (
        await stack.admin.post(strategies, {
          name: 'default',
          constraints: [{ contextName: 'tenant', operator: 'IN', values: ['initech'] }],
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await stack.admin.post(strategies, {
          name: 'default',
          constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }],
        })
      ).status,
    ).toBe(200);
    expect((await stack.admin.post('/api/admin/context/tenant/legal-values', { value: 'initech' })).status).toBe(200);
    expect(
      (await stack.admin.get('/api/admin/context/tenant')).body.legalValues.map((v: { value: string }) => v.value),
    ).toEqual(['acme', 'globex', 'initech']);
    expect((await stack.admin.delete('/api/admin/context/tenant')).status).toBe(200);
    expect((await stack.admin.delete('/api/admin/context/tenant')).status).toBe(404);
  });
});
