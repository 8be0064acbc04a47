import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
let userId: number;
const email = 'reset-me@example.com';
const login = (password: string) => stack.anonymous.post('/auth/simple/login', { username: email, password });
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: 'default:development.reset-client' } });
  const created = await stack.admin.post('/api/admin/user-admin', {
    email,
    name: 'Reset Me',
    rootRole: 3,
    password: 'first-password-1',
  });
  userId = created.body.id;
});
afterAll(() => stack?.dispose());

describe('password reset links', () => {
  it('lets the user set a new password once through the link an admin made', async () => {
    const link = await stack.admin.post('/api/admin/user-admin/reset-password', { id: email });
    expect(link.status).toBe(200);
    expect(link.body.resetPasswordUrl).toMatch(/\/reset-password\?token=[\w-]{40,}$/);
    const token = tokenOf(link.body.resetPasswordUrl);

    const validated = await stack.anonymous.get(`/auth/reset/validate?token=${token}`);
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({ id: userId, email, name: 'Reset Me', token, role: { name: 'Viewer' } });

    expect((await stack.anonymous.post('/auth/reset/validate-password', { password: 'short' })).status).toBe(400);
    expect((await stack.anonymous.post('/auth/reset/validate-password', { password: 'long-enough-1' })).status).toBe(
      200,
    );
    expect((await stack.anonymous.post('/auth/reset/password', { token, password: 'short' })).status).toBe(400);

    expect((await stack.anonymous.post('/auth/reset/password', { token, password: 'second-password-2' })).status).toBe(
      200,
    );
    expect((await login('second-password-2')).status).toBe(200);
    expect((await login('first-password-1')).status).toBe(401);

    const reused = await stack.anonymous.post('/auth/reset/password', { token, password: 'third-password-3' });
    expect(reused.status).toBe(401);
    expect(reused.body.name).toBe('AuthenticationRequired');
    expect((await stack.anonymous.get(`/auth/reset/validate?token=${token}`)).status).toBe(401);
  });

  it('keeps only the newest link of a user working', async () => {
    const first = tokenOf(
      (await stack.admin.post('/api/admin/user-admin/reset-password', { id: String(userId) })).body.resetPasswordUrl,
    );
    const second = tokenOf(
      (await stack.admin.post('/api/admin/user-admin/reset-password', { id: email })).body.resetPasswordUrl,
    );
    expect((await stack.anonymous.get(`/auth/reset/validate?token=${first}`)).status).toBe(401);
    expect((await stack.anonymous.get(`/auth/reset/validate?token=${second}`)).status).toBe(200);
  });

  it('answers 404 for an unknown user, 400 for a bad body and 403 without the ADMIN permission', async () => {
    expect((await stack.admin.post('/api/admin/user-admin/reset-password', { id: 'nobody@example.com' })).status).toBe(
      404,
    );
    const bad = await stack.admin.post('/api/admin/user-admin/reset-password', { id: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    const client = httpClient(stack.url, { authorization: 'default:development.reset-client' });
    expect((await client.post('/api/admin/user-admin/reset-password', { id: email })).status).toBe(403);
    expect((await stack.anonymous.get('/auth/reset/validate?token=made-up')).status).toBe(401);
  });
});

describe('GET|POST /api/admin/auth/simple/settings', () => {
  it('turns password sign-in off and on again, recording each change', async () => {
    expect((await stack.admin.get('/api/admin/auth/simple/settings')).body).toEqual({ disabled: false });
    expect((await stack.admin.post('/api/admin/auth/simple/settings', { disabled: 'yes' })).status).toBe(400);
    expect((await stack.admin.post('/api/admin/auth/simple/settings', { disabled: true })).body).toEqual({
      disabled: true,
    });
    const refused = await login('second-password-2');
    expect(refused.status).toBe(401);
    expect(refused.body.message).toContain('turned off');
    const statistics = await stack.admin.get('/api/admin/instance-admin/statistics');
    expect(statistics.body.passwordAuthEnabled).toBe(false);

    await stack.admin.post('/api/admin/auth/simple/settings', { disabled: false });
    expect((await login('second-password-2')).status).toBe(200);
    const events = await eventually(async () => {
      const found = (await stack.admin.post('/api/admin/events/search', { query: 'unleash.auth.simple' })).body.events;
      return found.length === 2 && found;
    });
    expect(events.map((event: { type: string }) => event.type)).toEqual(['setting-updated', 'setting-created']);
    expect(
      (
        await httpClient(stack.url, { authorization: 'default:development.reset-client' }).get(
          '/api/admin/auth/simple/settings',
        )
      ).status,
    ).toBe(403);
  });
});
