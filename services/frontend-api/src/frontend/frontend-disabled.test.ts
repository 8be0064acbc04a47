import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const frontendToken = 'default:development.disabled-frontend';
beforeAll(async () => {
  stack = await startTestStack({ env: { FRONTEND_API_ENABLED: 'false', INIT_FRONTEND_API_TOKENS: frontendToken } });
});
afterAll(() => stack?.dispose());

it('answers 404 with the error shape on every frontend route when the frontend API is disabled', async () => {
  const frontend = httpClient(stack.url, { authorization: frontendToken });
  for (const [method, path] of [
    ['GET', '/api/frontend'],
    ['POST', '/api/frontend'],
    ['GET', '/api/frontend/features/x'],
    ['GET', '/api/frontend/all'],
    ['POST', '/api/frontend/client/metrics'],
    ['POST', '/api/frontend/client/register'],
    ['OPTIONS', '/api/frontend'],
  ] as const) {
    const reply = await frontend.call(method, path, method === 'POST' ? {} : undefined);
    expect(reply.status, `${method} ${path}`).toBe(404);
    expect(reply.body.name).toBe('NotFoundError');
    expect(typeof reply.body.id).toBe('string');
  }
  expect((await stack.admin.get('/api/admin/projects')).status).toBe(200);
});

it('keeps /api/frontend/all off unless configured, as it names every flag', async () => {
  const defaults = await startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } });
  try {
    const frontend = httpClient(defaults.url, { authorization: frontendToken });
    expect((await frontend.get('/api/frontend')).status).toBe(200);
    const all = await frontend.get('/api/frontend/all');
    expect(all.status).toBe(404);
    expect(all.body.name).toBe('NotFoundError');
  } finally {
    await defaults.dispose();
  }
});
