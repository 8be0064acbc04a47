import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, startTestStack, type TestStack } from '@bunting/testing';

let stack: TestStack;
const frontendToken = 'default:development.disabled-frontend';
beforeAll(async () => {
  stack = await startTestStack({ env: { FRONTEND_API_ENABLED: 'false', INIT_FRONTEND_API_TOKENS: frontendToken } });
});
afterAll(() => stack?.dispose());

it('answers 404 with the error shape on every frontend route when the frontend API is disabled', async () => {
  const frontend = httpClient(stack.url, { authorization: frontendToken });
  for (const [method, path] of [
    ['GET', '/api/frontend'], ['POST', '/api/frontend'], ['GET', '/api/frontend/features/x'],
    ['POST', '/api/frontend/client/metrics'], ['POST', '/api/frontend/client/register'], ['OPTIONS', '/api/frontend'],
  ] as const) {
    const reply = await frontend.call(method, path, method === 'POST' ? {} : undefined);
    expect(reply.status, `${method} ${path}`).toBe(404);
    expect(reply.body.name).toBe('NotFoundError');
    expect(typeof reply.body.id).toBe('string');
  }
  expect((await stack.admin.get('/api/admin/projects')).status).toBe(200);
});
