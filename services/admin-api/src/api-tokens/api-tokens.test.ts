import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: 'default:development.init-client-secret',
      INIT_FRONTEND_API_TOKENS: 'default:production.init-frontend-secret',
    },
  });
});
afterAll(() => stack?.dispose());

describe('API tokens', () => {
  it('creates client, frontend and admin tokens in the <project>:<environment>.<secret> form, shown once', async () => {
    const client = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'web',
      type: 'client',
      environment: 'development',
      projects: ['default'],
    });
    expect(client.status).toBe(201);
    expect(client.body.secret).toMatch(/^default:development\.[0-9a-f]{56}$/);
    expect(client.body).toMatchObject({
      tokenName: 'web',
      type: 'client',
      environment: 'development',
      projects: ['default'],
      project: 'default',
    });
    const frontend = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'spa',
      type: 'FRONTEND',
      environment: 'production',
    });
    expect(frontend.body.secret).toMatch(/^\*:production\./);
    // Unleash 8's name for a server-SDK token is kept in answers; the token serves as a client token.
    const backend = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'server',
      type: 'backend',
      environment: 'development',
    });
    expect(backend.body).toMatchObject({ tokenName: 'server', type: 'backend' });
    expect(
      (await httpClient(stack.url, { authorization: backend.body.secret }).get('/api/client/features')).status,
    ).toBe(200);
    // Admin access is for service accounts and personal access tokens, as in Unleash 8.
    const admin = await stack.admin.post('/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    expect(admin.status).toBe(400);
    expect(admin.body.details[0].path).toBe('type');
    const listed = await stack.admin.get('/api/admin/api-tokens');
    expect(listed.body.tokens.every((token: { secret: unknown }) => token.secret === null)).toBe(true);
    expect(listed.body.tokens.map((token: { tokenName: string }) => token.tokenName)).toEqual(
      expect.arrayContaining(['web', 'spa', 'server', 'admin', 'init-client', 'init-frontend']),
    );
    expect(listed.body.tokens.map((token: { tokenName: string }) => token.tokenName)).not.toContain('ops');
    expect(listed.body.tokens.find((token: { tokenName: string }) => token.tokenName === 'server').type).toBe(
      'backend',
    );
  });

  it('refuses an unknown environment or project and a bad type', async () => {
    expect(
      (await stack.admin.post('/api/admin/api-tokens', { tokenName: 'x', type: 'client', environment: 'nope' })).status,
    ).toBe(400);
    expect(
      (await stack.admin.post('/api/admin/api-tokens', { tokenName: 'x', type: 'client', projects: ['nope'] })).status,
    ).toBe(400);
    expect((await stack.admin.post('/api/admin/api-tokens', { tokenName: 'x', type: 'superuser' })).status).toBe(400);
    expect((await stack.admin.post('/api/admin/api-tokens', { type: 'client' })).status).toBe(400);
  });

  it('refuses client and frontend tokens on the admin API with 403 naming the permission', async () => {
    const client = httpClient(stack.url, { authorization: 'default:development.init-client-secret' });
    const read = await client.get('/api/admin/projects');
    expect(read.status).toBe(403);
    expect(read.body.name).toBe('NoAccessError');
    expect(read.body.message).toContain('READ');
    const write = await client.post('/api/admin/projects/default/features', { name: 'from-client' });
    expect(write.status).toBe(403);
    expect(write.body.message).toContain('CREATE_FEATURE');
    const toggle = await httpClient(stack.url, { authorization: 'default:production.init-frontend-secret' }).post(
      '/api/admin/projects/default/features/x/environments/production/on',
    );
    expect(toggle.status).toBe(403);
    expect(toggle.body.message).toContain('UPDATE_FEATURE_ENVIRONMENT');
    expect(toggle.body.message).toContain('production');
    const unknown = await httpClient(stack.url, { authorization: 'default:development.nope' }).get(
      '/api/admin/projects',
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body.name).toBe('AuthenticationRequired');
  });

  it('updates expiry and deletes; a deleted or expired token stops working', async () => {
    const created = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'short',
      type: 'client',
      environment: 'development',
    });
    const client = httpClient(stack.url, { authorization: created.body.secret });
    expect((await client.get('/api/client/features')).status).toBe(200);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (await stack.admin.put(`/api/admin/api-tokens/${encodeURIComponent(created.body.secret)}`, { expiresAt: future }))
        .status,
    ).toBe(200);
    expect((await stack.admin.delete(`/api/admin/api-tokens/${encodeURIComponent(created.body.secret)}`)).status).toBe(
      200,
    );
    // The SDK edge hears of the revocation through the stream.
    await eventually(async () => (await client.get('/api/client/features')).status === 401);
    const types = await eventually(async () => {
      const reply = await stack.admin.post('/api/admin/events/search', { query: 'api-token' });
      const found = (reply.body.events as { type: string }[]).map((e) => e.type);
      return found.includes('api-token-deleted') && found;
    });
    expect(types).toEqual(expect.arrayContaining(['api-token-created', 'api-token-updated', 'api-token-deleted']));
  });
});

describe('project API tokens', () => {
  it('are SDK tokens of that project only: an admin type or other projects are refused with 400, not narrowed', async () => {
    const before = (await stack.admin.get('/api/admin/projects/default/api-tokens')).body.tokens.length;
    const asAdmin = await stack.admin.post('/api/admin/projects/default/api-tokens', {
      tokenName: 'sneaky',
      type: 'admin',
    });
    expect(asAdmin.status).toBe(400);
    expect(asAdmin.body.details[0].path).toBe('type');
    const foreign = await stack.admin.post('/api/admin/projects/default/api-tokens', {
      tokenName: 'wide',
      type: 'client',
      environment: 'development',
      projects: ['default', 'other'],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details[0].path).toBe('projects');
    expect((await stack.admin.get('/api/admin/projects/default/api-tokens')).body.tokens).toHaveLength(before);
    const fine = await stack.admin.post('/api/admin/projects/default/api-tokens', {
      tokenName: 'fine',
      type: 'frontend',
      environment: 'development',
    });
    expect(fine.status).toBe(201);
    expect(fine.body).toMatchObject({ type: 'frontend', projects: ['default'] });
  });
});

describe('bad input never crashes or changes anything', () => {
  it('answers oversized bodies with 413 and junk with 400, in the error shape', async () => {
    const huge = await stack.admin.post('/api/admin/projects/default/features', {
      name: 'big',
      description: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ name: 'PayloadTooLargeError' });
    for (const body of ['[]', 'null', '"text"', '{"name": {"nested": true}}', '\u0000']) {
      const reply = await stack.admin.post('/api/admin/projects/default/features', body, {
        'content-type': 'application/json',
      });
      expect(reply.status, body).toBe(400);
      expect(reply.body.name).toBe('ValidationError');
    }
    const wrongType = await stack.admin.post('/api/admin/projects/default/features', 'name=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(wrongType.status).toBe(415);
    const unknownRoute = await stack.admin.get('/api/admin/nothing-here');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.name).toBe('NotFoundError');
    expect((await stack.admin.get('/api/admin/projects/default/features/big')).status).toBe(404);
    expect((await stack.admin.get('/health')).status).toBe(200);
  });
});
