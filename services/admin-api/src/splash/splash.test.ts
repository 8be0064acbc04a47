import { afterAll, beforeAll, expect, it } from 'vitest';
import { loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

it('remembers which screens a user dismissed, per user, and refuses tokens', async () => {
  const admin = await loginAs(stack.url, 'admin', 'unleash4all');
  expect((await admin.get('/api/admin/user')).body.splash).toEqual({});
  const dismissed = await admin.post('/api/admin/splash/strategy-drag-tooltip', {});
  expect(dismissed.status).toBe(200);
  expect(dismissed.body).toEqual({ userId: expect.any(Number), splashId: 'strategy-drag-tooltip', seen: true });
  // Twice is the same as once.
  expect((await admin.post('/api/admin/splash/strategy-drag-tooltip', {})).status).toBe(200);
  expect((await admin.get('/api/admin/user')).body.splash).toEqual({ 'strategy-drag-tooltip': true });

  const created = await stack.admin.post('/api/admin/user-admin', {
    username: 'splashless',
    rootRole: 3,
    password: 'splashless-pass-1',
  });
  expect(created.status).toBe(201);
  expect(
    (await (await loginAs(stack.url, 'splashless', 'splashless-pass-1')).get('/api/admin/user')).body.splash,
  ).toEqual({});

  const byToken = await stack.admin.post('/api/admin/splash/strategy-drag-tooltip', {});
  expect(byToken.status).toBe(400);
  expect(byToken.body.name).toBe('ValidationError');
  expect((await stack.anonymous.post('/api/admin/splash/anything', {})).status).toBe(401);
});
