import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
let frontend: HttpClient;
const frontendToken = 'default:development.frontend-test-token';
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INIT_FRONTEND_API_TOKENS: frontendToken,
      INIT_CLIENT_API_TOKENS: 'default:development.client-test-token',
      FRONTEND_API_ALL_ENDPOINT: 'true',
    },
  });
  frontend = httpClient(stack.url, { authorization: frontendToken });
  const { admin } = stack;
  await admin.post(base, { name: 'always-on', impressionData: true });
  await admin.post(`${base}/always-on/environments/development/on`);
  await admin.post(base, { name: 'for-alice' });
  await admin.post(`${base}/for-alice/environments/development/strategies`, {
    name: 'userWithId',
    parameters: { userIds: 'alice' },
  });
  await admin.post(`${base}/for-alice/environments/development/on`);
  await admin.post(base, { name: 'norway-only' });
  await admin.post(`${base}/norway-only/environments/development/strategies`, {
    name: 'default',
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }],
  });
  await admin.post(`${base}/norway-only/environments/development/on`);
  await admin.post(base, { name: 'with-variants' });
  await admin.post(`${base}/with-variants/environments/development/on`);
  await admin.put(`${base}/with-variants/environments/development/variants`, [
    { name: 'blue', weight: 0, payload: { type: 'json', value: '{"color":"blue"}' } },
    { name: 'red', weight: 0, overrides: [{ contextName: 'userId', values: ['carol'] }] },
  ]);
  await admin.post(base, { name: 'switched-off' });
  await admin.post(base, { name: 'in-future' });
  await admin.post(`${base}/in-future/environments/development/strategies`, {
    name: 'default',
    constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00Z' }],
  });
  await admin.post(`${base}/in-future/environments/development/on`);
});
afterAll(() => stack?.dispose());

const names = (body: { toggles: { name: string }[] }) => body.toggles.map((toggle) => toggle.name).sort();

describe('/api/frontend/all', () => {
  it('lists every flag the token sees, those off for the context with enabled false', async () => {
    const reply = await eventually(async () => {
      const answer = await frontend.get('/api/frontend/all?userId=bob');
      return answer.body?.toggles?.length === 6 && answer;
    });
    expect(names(reply.body)).toEqual([
      'always-on',
      'for-alice',
      'in-future',
      'norway-only',
      'switched-off',
      'with-variants',
    ]);
    expect(reply.body.toggles.find((t: { name: string }) => t.name === 'switched-off')).toEqual({
      name: 'switched-off',
      enabled: false,
      variant: { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false },
      impressionData: false,
    });
    expect(reply.body.toggles.find((t: { name: string }) => t.name === 'always-on').enabled).toBe(true);
    const posted = await frontend.post('/api/frontend/all', { context: { userId: 'alice' } });
    expect(posted.body.toggles.find((t: { name: string }) => t.name === 'for-alice').enabled).toBe(true);
    expect((await frontend.post('/api/frontend/all', { context: 'alice' })).status).toBe(400);
  });
});

describe('GET /api/frontend', () => {
  it('returns only enabled flags with the reference shape', async () => {
    const reply = await eventually(async () => {
      const answer = await frontend.get('/api/frontend?userId=bob');
      return answer.body?.toggles?.length === 2 && answer;
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    expect(names(reply.body)).toEqual(['always-on', 'with-variants']);
    expect(reply.body.toggles.find((t: { name: string }) => t.name === 'always-on')).toEqual({
      name: 'always-on',
      enabled: true,
      variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
      impressionData: true,
    });
    const variant = reply.body.toggles.find((t: { name: string }) => t.name === 'with-variants').variant;
    expect(['blue', 'red']).toContain(variant.name);
    expect(variant).toMatchObject({ enabled: true, feature_enabled: true, featureEnabled: true });
  });

  it('reads userId, properties[...] and other parameters as properties', async () => {
    expect(names((await frontend.get('/api/frontend?userId=alice')).body)).toContain('for-alice');
    expect(names((await frontend.get('/api/frontend?properties[country]=NO')).body)).toContain('norway-only');
    expect(names((await frontend.get('/api/frontend?country=NO')).body)).toContain('norway-only');
    expect(names((await frontend.get('/api/frontend?country=NO&properties[country]=SE')).body)).not.toContain(
      'norway-only',
    );
    expect(names((await frontend.get('/api/frontend?currentTime=2031-01-01T00:00:00Z')).body)).toContain('in-future');
    expect(names((await frontend.get('/api/frontend?currentTime=2029-01-01T00:00:00Z')).body)).not.toContain(
      'in-future',
    );
    const carol = await frontend.get('/api/frontend?userId=carol');
    expect(carol.body.toggles.find((t: { name: string }) => t.name === 'with-variants').variant).toEqual({
      name: 'red',
      enabled: true,
      feature_enabled: true,
      featureEnabled: true,
    });
  });

  it('gives a user the same variant every time (sticky)', async () => {
    const first = await frontend.get('/api/frontend?userId=user-42');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const again = await frontend.get('/api/frontend?userId=user-42');
      expect(again.body).toEqual(first.body);
    }
  });

  it('takes the context in a POST body, with or without the context key', async () => {
    expect(names((await frontend.post('/api/frontend', { context: { userId: 'alice' } })).body)).toContain('for-alice');
    expect(names((await frontend.post('/api/frontend', { userId: 'alice' })).body)).toContain('for-alice');
    expect(
      names((await frontend.post('/api/frontend', { context: { properties: { country: 'NO' } } })).body),
    ).toContain('norway-only');
  });

  it('answers the single flag route', async () => {
    const on = await frontend.get('/api/frontend/features/for-alice?userId=alice');
    expect(on.status).toBe(200);
    expect(on.body.name).toBe('for-alice');
    expect((await frontend.get('/api/frontend/features/for-alice?userId=bob')).status).toBe(404);
    expect((await frontend.get('/api/frontend/features/switched-off')).status).toBe(404);
  });

  it('refuses missing and unknown tokens (401), client tokens (403) and bad context values (400)', async () => {
    const missing = await stack.anonymous.get('/api/frontend');
    expect(missing.status).toBe(401);
    expect(missing.body.name).toBe('AuthenticationRequired');
    expect(
      (await httpClient(stack.url, { authorization: 'default:development.nope' }).get('/api/frontend')).status,
    ).toBe(401);
    const client = await httpClient(stack.url, { authorization: 'default:development.client-test-token' }).get(
      '/api/frontend',
    );
    expect(client.status).toBe(403);
    expect(client.body.name).toBe('NoAccessError');
    const badTime = await frontend.get('/api/frontend?currentTime=yesterday');
    expect(badTime.status).toBe(400);
    expect(badTime.body.details[0].path).toBe('currentTime');
    expect((await frontend.get(`/api/frontend?userId=${'x'.repeat(3000)}`)).status).toBe(400);
    const huge = await frontend.get(`/api/frontend?userId=${'x'.repeat(70_000)}`);
    expect([400, 414, 431]).toContain(huge.status);
    expect(huge.body.name).toBe('ValidationError');
    expect((await frontend.post('/api/frontend', '[1,2]', { 'content-type': 'application/json' })).status).toBe(400);
    const oversized = await frontend.post('/api/frontend', {
      context: { properties: { blob: 'x'.repeat(1_100_000) } },
    });
    expect(oversized.status).toBe(413);
    expect(oversized.body.name).toBe('PayloadTooLargeError');
    expect(
      (
        await frontend.post('/api/frontend/client/metrics', {
          appName: 'x',
          instanceId: 'y',
          bucket: { start: 'z'.repeat(1_100_000) },
        })
      ).status,
    ).toBe(413);
    const admin = await frontend.get('/api/admin/projects');
    expect(admin.status).toBe(403);
  });

  it('answers CORS preflights and sets the allowed origin', async () => {
    const preflight = await frontend.call('OPTIONS', '/api/frontend', undefined, {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const reply = await frontend.get('/api/frontend', { origin: 'https://app.example' });
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('accepts frontend metrics and registrations, and refuses invalid metrics', async () => {
    const metrics = await frontend.post('/api/frontend/client/metrics', {
      appName: 'web',
      instanceId: 'browser',
      bucket: {
        start: new Date().toISOString(),
        stop: new Date().toISOString(),
        toggles: { 'always-on': { yes: 3, no: 0 } },
      },
    });
    expect(metrics.status).toBe(200);
    expect(
      (await frontend.post('/api/frontend/client/register', { appName: 'web', instanceId: 'browser' })).status,
    ).toBe(200);
    expect((await frontend.post('/api/frontend/client/metrics', { appName: 'web' })).status).toBe(400);
  });

  it('shows a change made through the admin API', async () => {
    await stack.admin.post(`${base}/switched-off/environments/development/on`);
    await eventually(async () => names((await frontend.get('/api/frontend')).body).includes('switched-off'), {
      timeoutMs: 2000,
    });
    await stack.admin.post(`${base}/switched-off/environments/development/off`);
    await eventually(async () => !names((await frontend.get('/api/frontend')).body).includes('switched-off'), {
      timeoutMs: 2000,
    });
  });
});

describe('a frontend token is scoped to its projects and environment', () => {
  it('sees only its projects and its environment', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'other', name: 'Other' });
    await stack.admin.post('/api/admin/projects/other/features', { name: 'other-flag' });
    await stack.admin.post('/api/admin/projects/other/features/other-flag/environments/development/on');
    const wide = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'wide',
      type: 'frontend',
      environment: 'development',
      projects: ['*'],
    });
    const production = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'prod',
      type: 'frontend',
      environment: 'production',
    });
    const wideClient = httpClient(stack.url, { authorization: wide.body.secret });
    await eventually(async () => names((await wideClient.get('/api/frontend')).body).includes('other-flag'));
    expect(names((await frontend.get('/api/frontend')).body)).not.toContain('other-flag');
    expect(
      (await httpClient(stack.url, { authorization: production.body.secret }).get('/api/frontend')).body.toggles,
    ).toEqual([]);
  });
});

describe('CORS origins set through /api/admin/ui-config/cors', () => {
  it('reach the frontend API within moments, and a bad origin is refused', async () => {
    const bad = await stack.admin.post('/api/admin/ui-config/cors', {
      frontendApiOrigins: ['https://ok.example', 'shop.example/path'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('frontendApiOrigins.1');
    expect((await frontend.post('/api/admin/ui-config/cors', { frontendApiOrigins: ['*'] })).status).toBe(403);

    expect(
      (await stack.admin.post('/api/admin/ui-config/cors', { frontendApiOrigins: ['https://shop.example'] })).status,
    ).toBe(204);
    expect((await stack.admin.get('/api/admin/ui-config')).body.frontendApiOrigins).toEqual(['https://shop.example']);
    const allowed = await eventually(async () => {
      const reply = await frontend.get('/api/frontend', { origin: 'https://shop.example' });
      return reply.headers.get('access-control-allow-origin') === 'https://shop.example' && reply;
    });
    expect(allowed.headers.get('vary')).toContain('Origin');
    expect(
      (await frontend.get('/api/frontend', { origin: 'https://other.example' })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();

    expect((await stack.admin.post('/api/admin/ui-config/cors', { frontendApiOrigins: ['*'] })).status).toBe(204);
    await eventually(
      async () =>
        (await frontend.get('/api/frontend', { origin: 'https://other.example' })).headers.get(
          'access-control-allow-origin',
        ) === '*',
    );
  });
});

describe('answering from what is already known', () => {
  it('gives the same answer on the first request of a token and on later ones, and stops at once for a deleted token', async () => {
    const created = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'fast-path',
      type: 'frontend',
      environment: 'development',
      projects: ['default'],
    });
    const fresh = httpClient(stack.url, { authorization: created.body.secret });
    const first = await fresh.get('/api/frontend?userId=alice'); // a token made a moment ago: asked of admin-api once
    const second = await fresh.get('/api/frontend?userId=alice'); // now in the replica's token set: no wait at all
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect((await stack.admin.delete(`/api/admin/api-tokens/${encodeURIComponent(created.body.secret)}`)).status).toBe(
      200,
    );
    const refused = await eventually(
      async () => {
        const reply = await fresh.get('/api/frontend?userId=alice');
        return reply.status === 401 && reply;
      },
      { timeoutMs: 3000 },
    );
    expect(refused.body.name).toBe('AuthenticationRequired');
  });
});
