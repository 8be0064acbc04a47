import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

async function projectEventTypes(project: string, count: number) {
  return eventually(async () => {
    const reply = await stack.admin.get(`/api/admin/events?project=${project}`);
    const types = (reply.body.events as { type: string }[]).map((e) => e.type).reverse();
    return types.length >= count && types;
  });
}

describe('projects', () => {
  it('has a default project on a fresh install', async () => {
    const reply = await stack.admin.get('/api/admin/projects');
    expect(reply.body.projects.map((p: { id: string }) => p.id)).toEqual(['default']);
  });

  it('creates, reads, updates and deletes a project', async () => {
    const created = await stack.admin.post('/api/admin/projects', {
      id: 'mobile',
      name: 'Mobile',
      description: 'apps',
      mode: 'protected',
      defaultStickiness: 'userId',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'mobile',
      name: 'Mobile',
      mode: 'protected',
      defaultStickiness: 'userId',
      environments: ['development', 'production'],
    });
    expect((await stack.admin.post('/api/admin/projects', { id: 'mobile', name: 'Again' })).status).toBe(409);
    expect((await stack.admin.post('/api/admin/projects', { id: 'bad id', name: 'x' })).status).toBe(400);
    expect((await stack.admin.post('/api/admin/projects', { id: 'x2', name: 'x', mode: 'secret' })).status).toBe(400);
    const updated = await stack.admin.put('/api/admin/projects/mobile', { name: 'Mobile apps', featureLimit: 10 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Mobile apps', featureLimit: 10, description: 'apps' });
    expect((await stack.admin.get('/api/admin/projects/mobile')).body.name).toBe('Mobile apps');
    expect((await stack.admin.get('/api/admin/projects/nope')).status).toBe(404);

    await stack.admin.post('/api/admin/projects/mobile/features', { name: 'mobile-flag' });
    const refused = await stack.admin.delete('/api/admin/projects/mobile');
    expect(refused.status).toBe(400);
    expect(refused.body.name).toBe('ValidationError');
    await stack.admin.delete('/api/admin/projects/mobile/features/mobile-flag');
    expect((await stack.admin.delete('/api/admin/projects/mobile')).status).toBe(400);
    await stack.admin.delete('/api/admin/archive/mobile-flag');
    expect((await stack.admin.delete('/api/admin/projects/mobile')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/projects/mobile')).status).toBe(404);
    expect(await projectEventTypes('mobile', 6)).toEqual([
      'project-created',
      'project-updated',
      'feature-created',
      'feature-archived',
      'feature-deleted',
      'project-deleted',
    ]);
  });

  it('adds and removes project environments', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'web', name: 'Web', environments: ['development'] });
    expect((await stack.admin.get('/api/admin/projects/web')).body.environments).toEqual(['development']);
    expect((await stack.admin.post('/api/admin/projects/web/environments', { environment: 'production' })).status).toBe(
      200,
    );
    expect((await stack.admin.post('/api/admin/projects/web/environments', { environment: 'nope' })).status).toBe(404);
    expect((await stack.admin.get('/api/admin/projects/web')).body.environments).toEqual(['development', 'production']);
    expect((await stack.admin.delete('/api/admin/projects/web/environments/development')).status).toBe(200);
    await stack.admin.post('/api/admin/projects/web/features', { name: 'web-flag' });
    expect(
      (await stack.admin.post('/api/admin/projects/web/features/web-flag/environments/development/on')).status,
    ).toBe(404);
    expect(await projectEventTypes('web', 4)).toEqual([
      'project-created',
      'project-environment-added',
      'project-environment-removed',
      'feature-created',
    ]);
  });
});
