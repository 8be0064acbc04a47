import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const clientToken = 'default:development.maintenance-client';
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
});
afterAll(() => stack?.dispose());

it('refuses configuration changes while maintenance mode is on, and nothing else', async () => {
  expect((await stack.admin.get('/api/admin/maintenance')).body).toEqual({ enabled: false });
  expect(
    (await httpClient(stack.url, { authorization: clientToken }).post('/api/admin/maintenance', { enabled: true }))
      .status,
  ).toBe(403);
  expect((await stack.admin.post('/api/admin/maintenance', { enabled: 'on' })).status).toBe(400);
  expect((await stack.admin.post('/api/admin/maintenance', { enabled: true })).status).toBe(204);
  expect((await stack.admin.get('/api/admin/maintenance')).body).toEqual({ enabled: true });
  expect((await stack.admin.get('/api/admin/ui-config')).body.maintenanceMode).toBe(true);

  const refused = await stack.admin.post(base, { name: 'during-maintenance' });
  expect(refused.status).toBe(503);
  expect(refused.body.name).toBe('ServiceUnavailableError');
  expect((await stack.admin.delete('/api/admin/projects/default')).status).toBe(503);
  expect((await stack.admin.get(`${base}/during-maintenance`)).status).toBe(404);
  expect((await stack.admin.get('/api/admin/projects')).status).toBe(200);
  expect((await stack.admin.post('/api/admin/features/validate', { name: 'during-maintenance' })).status).toBe(200);
  expect(
    (await stack.admin.post('/api/admin/playground', { environment: 'development', context: { appName: 'a' } })).status,
  ).toBe(200);

  expect((await stack.admin.post('/api/admin/maintenance', { enabled: false })).status).toBe(204);
  expect((await stack.admin.post(base, { name: 'after-maintenance' })).status).toBe(201);
  const events = await eventually(async () => {
    const found = (await stack.admin.post('/api/admin/events/search', { query: 'maintenance.mode' })).body.events;
    return found.length === 2 && found;
  });
  expect(
    events.map((event: { type: string; data: { enabled: boolean } }) => `${event.type}:${event.data.enabled}`),
  ).toEqual(['setting-updated:false', 'setting-created:true']);
});
