import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, loginAs, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';
import { bunting, projectDir, SHOP } from './flags-as-code.ts';

/**
 * A project managed as code: the pipeline's service account applies the files (through change requests where an
 * environment requires them); a hand edit, by a person, an admin token or anyone else, is refused with where to make
 * it; other projects are as before.
 */
let stack: TestStack;
let pipelineToken: string;
let pipelineId: number;
let viewer: HttpClient;
const setting = '/api/admin/projects/default/managed-as-code';

beforeAll(async () => {
  stack = await startTestStack();
  const account = await stack.admin.post('/api/admin/service-account', {
    username: 'flags-pipeline',
    name: 'Flags pipeline',
    rootRole: 'Admin',
  });
  expect(account.status, account.text).toBe(201);
  pipelineId = account.body.id;
  const token = await stack.admin.post(`/api/admin/service-account/${pipelineId}/token`, {
    description: 'CI',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  pipelineToken = token.body.secret;
  await stack.admin.post('/api/admin/user-admin', {
    username: 'mac-viewer',
    password: 'a-long-password',
    rootRole: 'Viewer',
  });
  viewer = await loginAs(stack.url, 'mac-viewer', 'a-long-password');
  await stack.admin.post('/api/admin/user-admin', {
    username: 'mac-reviewer',
    password: 'a-long-password',
    rootRole: 'Admin',
  });
  await stack.admin.post('/api/admin/projects', { id: 'by-hand', name: 'By hand' });
}, 120_000);
afterAll(() => stack?.dispose());

describe('a project managed as code', () => {
  it('is off by default, and refuses a setting that names no repository or a person as the pipeline', async () => {
    expect((await stack.admin.get(setting)).body).toEqual({
      enabled: false,
      repository: null,
      path: null,
      serviceAccountId: null,
    });
    expect(
      (await stack.admin.put(setting, { enabled: true, repository: null, path: null, serviceAccountId: null })).status,
    ).toBe(400);
    const person = (await stack.admin.get('/api/admin/user-admin')).body.users[0].id;
    const refused = await stack.admin.put(setting, {
      enabled: true,
      repository: 'github.com/acme/flags',
      path: null,
      serviceAccountId: person,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('serviceAccountId');
    expect(
      (await viewer.put(setting, { enabled: true, repository: 'x', path: null, serviceAccountId: null })).status,
    ).toBe(403);
    expect((await stack.admin.get(setting)).body.enabled).toBe(false);
  });

  it('takes changes from its pipeline only, and tells anyone else where to make them', async () => {
    const on = await stack.admin.put(setting, {
      enabled: true,
      repository: 'github.com/acme/flags',
      path: 'flags/default.yaml',
      serviceAccountId: pipelineId,
    });
    expect(on.status, on.text).toBe(200);
    expect((await viewer.get(setting)).body).toMatchObject({ enabled: true, repository: 'github.com/acme/flags' });
    // The event log takes events from the outbox through NATS: it holds the setting's event a moment later.
    const events = await eventually(
      async () => {
        const search = '/api/admin/search/events?type=IS:project-updated&project=IS:default';
        const found = (await stack.admin.get(search)).body.events as unknown[];
        return found.length > 0 && found;
      },
      { timeoutMs: 20_000 },
    );
    expect(events.length).toBeGreaterThan(0);

    const dir = await projectDir(SHOP);
    const applied = await bunting(['apply', '--dir', dir], { url: stack.url, token: pipelineToken });
    expect(applied.code, applied.stderr).toBe(0);
    expect((await stack.admin.get('/api/admin/projects/default/features/checkout-v2')).status).toBe(200);

    // By hand: an admin token, and a person who is an admin, are refused alike, with where to change it.
    const handMade = await stack.admin.post('/api/admin/projects/default/features', { name: 'hand-made' });
    expect(handMade.status).toBe(403);
    expect(handMade.body.message).toBe(
      'Project "default" is managed as code in github.com/acme/flags (flags/default.yaml): change its files there, and ' +
        'the pipeline applies them. Changes made here would be undone by the next apply, so they are refused.',
    );
    const toggled = await stack.admin.post(
      '/api/admin/projects/default/features/checkout-v2/environments/production/on',
    );
    expect(toggled.status).toBe(403);
    const admin = await loginAs(stack.url, 'admin', 'unleash4all').catch(() => null);
    if (admin)
      expect((await admin.post('/api/admin/projects/default/features', { name: 'hand-made-2' })).status).toBe(403);
    const edited = await stack.admin.put(`/api/admin/projects/default/features/checkout-v2`, {
      name: 'checkout-v2',
      description: 'edited by hand',
    });
    expect(edited.status).toBe(403);
    expect((await stack.admin.get('/api/admin/projects/default/features/checkout-v2')).body.description).toBe(
      'The new checkout',
    );
    // Another project is not managed.
    expect((await stack.admin.post('/api/admin/projects/by-hand/features', { name: 'hand-made' })).status).toBe(201);
    // Reading, favourites and the setting itself stay open.
    expect((await stack.admin.get('/api/admin/projects/default/features')).status).toBe(200);
    expect((await stack.admin.post('/api/admin/projects/default/features/checkout-v2/favorites')).status).toBeLessThan(
      300,
    );
  });

  it('lets an approved change request the pipeline opened be applied in a gated environment', async () => {
    await stack.admin.put('/api/admin/projects/default/environments/production/change-requests/config', {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    const dir = await projectDir(
      SHOP.replace(
        '        enabled: false\n        strategies:\n          - name: default',
        '        enabled: true\n        strategies:\n          - name: default',
      ),
    );
    const applied = await bunting(['apply', '--dir', dir], { url: stack.url, token: pipelineToken });
    expect(applied.code, applied.stderr).toBe(0);
    const id = /Opened change request (\d+)/.exec(applied.stdout)![1];
    const requests = `/api/admin/projects/default/change-requests/${id}`;
    // A person approves and applies it: the change carries out an approval, so the project's rule lets it through.
    await stack.admin.post('/api/admin/user-admin', {
      username: 'mac-reviewer',
      password: 'a-long-password',
      rootRole: 'Admin',
    });
    const reviewer = await loginAs(stack.url, 'mac-reviewer', 'a-long-password');
    expect((await reviewer.put(`${requests}/state`, { state: 'Approved' })).status).toBeLessThan(300);
    const done = await reviewer.put(`${requests}/state`, { state: 'Applied' });
    expect(done.status, done.text).toBeLessThan(300);
    const production = (
      await stack.admin.get('/api/admin/projects/default/features/checkout-v2')
    ).body.environments.find((environment: { name: string }) => environment.name === 'production');
    expect(production.enabled).toBe(true);
  });

  it('takes hand edits again once turned off', async () => {
    expect(
      (await stack.admin.put(setting, { enabled: false, repository: null, path: null, serviceAccountId: null })).status,
    ).toBe(200);
    expect((await stack.admin.post('/api/admin/projects/default/features', { name: 'hand-made-later' })).status).toBe(
      201,
    );
  });
});
