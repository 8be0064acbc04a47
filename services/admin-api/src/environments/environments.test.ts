import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/testing';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { PROTECTED_ENVIRONMENTS: 'production' } });
});
afterAll(() => stack?.dispose());

async function eventsOfType(type: string) {
  const reply = await stack.admin.post('/api/admin/events/search', { type });
  return reply.body.events as { type: string; environment: string | null; data: any }[];
}

describe('environments (seed endpoint 5)', () => {
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
    const reply = await stack.admin.post('/api/admin/environments', { name: 'qa', type: 'my-own-type', enabled: false, sortOrder: 7 });
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
    const updated = await stack.admin.put('/api/admin/environments/update/temp', { type: 'development', sortOrder: 42 });
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
});
