import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const frontendToken = 'default:development.playground-frontend';
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } });
  const { admin } = stack;
  await admin.post('/api/admin/projects', { id: 'other', name: 'Other' });
  await admin.post('/api/admin/projects/other/features', { name: 'elsewhere' });
  await admin.post('/api/admin/projects/other/features/elsewhere/environments/development/on');
  await admin.post(base, { name: 'norway' });
  await admin.post(`${base}/norway/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'norway' },
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }],
  });
  await admin.post(`${base}/norway/environments/development/on`);
  await admin.post(base, { name: 'half' });
  await admin.post(`${base}/half/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' },
  });
  await admin.post(`${base}/half/environments/development/on`);
  await admin.put(`${base}/half/environments/development/variants`, [
    { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
    { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
  ]);
  await admin.post(base, { name: 'dormant' });
});
afterAll(() => stack?.dispose());

describe('POST /api/admin/playground', () => {
  it('explains every flag and agrees with /api/frontend for each context', async () => {
    const frontend = httpClient(stack.url, { authorization: frontendToken });
    for (const userId of ['u1', 'u2', 'u3', 'u4', 'u5', 'u6']) {
      for (const country of ['NO', 'SE']) {
        const reply = await stack.admin.post('/api/admin/playground', {
          environment: 'development',
          projects: ['default'],
          context: { appName: 'web', userId, country },
        });
        expect(reply.status).toBe(200);
        const enabled = reply.body.features
          .filter((f: { isEnabled: boolean }) => f.isEnabled)
          .map((f: { name: string }) => f.name)
          .sort();
        const answer = await eventually(
          async () =>
            (await frontend.get(`/api/frontend?userId=${userId}&properties[country]=${country}`)).body.toggles,
        );
        expect(enabled, `${userId} ${country}`).toEqual(
          answer
            .map((toggle: { name: string }) => toggle.name)
            .filter((name: string) => name !== 'elsewhere')
            .sort(),
        );
        const half = reply.body.features.find((f: { name: string }) => f.name === 'half');
        const toggle = answer.find((t: { name: string }) => t.name === 'half');
        if (toggle) expect(half.variant.name).toBe(toggle.variant.name);
      }
    }
  });

  it('shows each strategy and constraint result', async () => {
    const { body } = await stack.admin.post('/api/admin/playground', {
      environment: 'development',
      context: { appName: 'web', properties: { country: 'SE' } },
    });
    expect(body.input).toEqual({
      environment: 'development',
      context: { appName: 'web', properties: { country: 'SE' } },
    });
    expect(body.features.map((f: { name: string }) => f.name).sort()).toEqual([
      'dormant',
      'elsewhere',
      'half',
      'norway',
    ]);
    const norway = body.features.find((f: { name: string }) => f.name === 'norway');
    expect(norway).toMatchObject({
      projectId: 'default',
      isEnabled: false,
      isEnabledInCurrentEnvironment: true,
      hasUnsatisfiedDependency: false,
      variant: { name: 'disabled', enabled: false },
      strategies: {
        result: false,
        data: [
          {
            name: 'flexibleRollout',
            disabled: false,
            result: { evaluationStatus: 'complete', enabled: false },
            constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'], result: false }],
            segments: [],
          },
        ],
      },
    });
    const dormant = body.features.find((f: { name: string }) => f.name === 'dormant');
    expect(dormant).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: false });
  });

  it('answers 400 for a missing appName or unknown environment, 401 and 403 without the right credentials', async () => {
    const noApp = await stack.admin.post('/api/admin/playground', { environment: 'development', context: {} });
    expect(noApp.status).toBe(400);
    expect(noApp.body.details[0].path).toBe('context.appName');
    const noEnv = await stack.admin.post('/api/admin/playground', {
      environment: 'staging',
      context: { appName: 'web' },
    });
    expect(noEnv.status).toBe(400);
    expect(noEnv.body.details[0].path).toBe('environment');
    expect(
      (await stack.anonymous.post('/api/admin/playground', { environment: 'development', context: { appName: 'web' } }))
        .status,
    ).toBe(401);
    expect(
      (
        await httpClient(stack.url, { authorization: frontendToken }).post('/api/admin/playground', {
          environment: 'development',
          context: { appName: 'web' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('POST /api/admin/playground/advanced', () => {
  it('evaluates every combination of comma-separated values in every environment', async () => {
    const reply = await stack.admin.post('/api/admin/playground/advanced', {
      environments: ['development', 'production'],
      projects: '*',
      context: { appName: 'web', userId: 'u1,u2', properties: { country: 'NO,SE' } },
    });
    expect(reply.status).toBe(200);
    const norway = reply.body.features.find((f: { name: string }) => f.name === 'norway');
    expect(norway.environments.development).toHaveLength(4);
    expect(norway.environments.production).toHaveLength(4);
    const inDevelopment = norway.environments.development
      .map(
        (entry: { context: { userId: string; properties: { country: string } }; isEnabled: boolean }) =>
          `${entry.context.userId}/${entry.context.properties.country}=${entry.isEnabled}`,
      )
      .sort();
    expect(inDevelopment).toEqual(['u1/NO=true', 'u1/SE=false', 'u2/NO=true', 'u2/SE=false']);
    expect(
      norway.environments.production.every(
        (entry: { isEnabled: boolean; environment: string }) => !entry.isEnabled && entry.environment === 'production',
      ),
    ).toBe(true);
    const tooMany = await stack.admin.post('/api/admin/playground/advanced', {
      environments: ['development'],
      context: {
        appName: 'web',
        userId: Array.from({ length: 40 }, (_, i) => `u${i}`).join(','),
        sessionId: Array.from({ length: 40 }, (_, i) => `s${i}`).join(','),
      },
    });
    expect(tooMany.status).toBe(400);
  });
});
