import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const base = '/api/admin/projects/default/features';
const stages = async (name: string) =>
  ((await stack.admin.get(`${base}/${name}/lifecycle`)).body as { stage: string; status?: string }[]).map((entry) =>
    entry.status ? `${entry.stage}:${entry.status}` : entry.stage,
  );

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

it('records each stage a flag enters, completion included, and counts flags per stage', async () => {
  await stack.admin.post(base, { name: 'journey' });
  await stack.admin.post(base, { name: 'bystander' });
  expect(await stages('journey')).toEqual(['initial']);
  await stack.admin.post(`${base}/journey/environments/development/on`);
  await stack.admin.post(`${base}/journey/environments/production/on`);
  expect(await stages('journey')).toEqual(['initial', 'pre-live', 'live']);
  expect((await stack.admin.get('/api/admin/lifecycle/count')).body).toEqual({
    initial: 1,
    preLive: 0,
    live: 1,
    completed: 0,
    archived: 0,
  });

  expect((await stack.admin.post(`${base}/journey/lifecycle/complete`, { status: 'maybe' })).status).toBe(400);
  expect(
    (await stack.admin.post(`${base}/journey/lifecycle/complete`, { status: 'kept', statusValue: 'on' })).status,
  ).toBe(200);
  expect(await stages('journey')).toEqual(['initial', 'pre-live', 'live', 'completed:kept']);
  expect((await stack.admin.get(`${base}/journey`)).body.lifecycle.stage).toBe('completed');
  // Completed stays completed while the flag changes.
  await stack.admin.post(`${base}/journey/environments/development/off`);
  expect((await stack.admin.get(`${base}/journey`)).body.lifecycle.stage).toBe('completed');

  expect((await stack.admin.post(`${base}/journey/lifecycle/uncomplete`)).status).toBe(200);
  expect((await stack.admin.get(`${base}/journey`)).body.lifecycle.stage).toBe('live');
  await stack.admin.delete(`${base}/journey`);
  expect((await stages('journey')).at(-1)).toBe('archived');
  expect((await stack.admin.get('/api/admin/lifecycle/count')).body).toEqual({
    initial: 1,
    preLive: 0,
    live: 0,
    completed: 0,
    archived: 1,
  });

  const events = await eventually(async () => {
    const found = (await stack.admin.post('/api/admin/events/search', { feature: 'journey' })).body.events.map(
      (event: { type: string }) => event.type,
    );
    return found.includes('feature-uncompleted') && found;
  });
  expect(events).toContain('feature-completed');
  const completed = (await stack.admin.post('/api/admin/events/search', { type: 'feature-completed' })).body.events[0];
  expect(completed.data).toEqual({ status: 'kept', statusValue: 'on' });

  expect((await stack.admin.get(`${base}/nope/lifecycle`)).status).toBe(404);
  expect((await stack.admin.post(`${base}/nope/lifecycle/complete`, { status: 'kept' })).status).toBe(404);
});
