import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

const VALIDATE = '/api/admin/features-batch/validate';

function importData(overrides: Record<string, unknown> = {}, project = 'default', environment = 'development') {
  return {
    project,
    environment,
    data: {
      features: [{ name: 'imported-a', type: 'release' }, { name: 'imported-b' }],
      featureStrategies: [
        { name: 'flexibleRollout', featureName: 'imported-a', parameters: { rollout: '50' }, constraints: [] },
      ],
      featureEnvironments: [
        { name: 'imported-a', featureName: 'imported-a', environment: 'development', enabled: true },
      ],
      tagTypes: [],
      ...overrides,
    },
  };
}

describe('POST /api/admin/features-batch/validate', () => {
  it('finds nothing to object to in clean data, and changes nothing', async () => {
    const reply = await stack.admin.post(VALIDATE, importData());
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ errors: [], warnings: [], permissions: [] });
    expect((await stack.admin.get('/api/admin/projects/default/features/imported-a')).status).toBe(404);
  });

  it('reports errors and warnings, each with the items it concerns', async () => {
    const base = '/api/admin/projects/default/features';
    await stack.admin.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' });
    await stack.admin.post('/api/admin/projects/elsewhere/features', { name: 'taken-flag' });
    await stack.admin.post(base, { name: 'present-flag' });
    await stack.admin.post(base, { name: 'retired-flag' });
    await stack.admin.delete(`${base}/retired-flag`);
    await stack.admin.post('/api/admin/strategies', { name: 'my-custom', parameters: [] });
    await stack.admin.post('/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }] });

    const reply = await stack.admin.post(
      VALIDATE,
      importData({
        features: [
          { name: 'taken-flag' },
          { name: 'present-flag' },
          { name: 'retired-flag' },
          { name: 'fresh' },
          { name: 'fresh' },
        ],
        featureStrategies: [
          { name: 'no-such-strategy', featureName: 'fresh' },
          { name: 'my-custom', featureName: 'present-flag', segments: [7, 8] },
        ],
        segments: [{ id: 7, name: 'unknown-segment', constraints: [] }],
        contextFields: [
          { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] },
          { name: 'brand-new-field' },
        ],
        dependencies: [
          { feature: 'fresh', dependencies: [{ feature: 'missing-parent' }, { feature: 'present-flag' }] },
        ],
      }),
    );
    expect(reply.status).toBe(200);
    const affected = (list: { message: string; affectedItems: string[] }[]) => list.map((entry) => entry.affectedItems);
    expect(affected(reply.body.errors)).toEqual([
      ['taken-flag (in project elsewhere)'],
      ['retired-flag'],
      ['fresh'],
      ['no-such-strategy'],
      ['region'],
      ['unknown-segment'],
      ['8'],
      ['missing-parent'],
    ]);
    for (const entry of reply.body.errors) expect(entry.message.length).toBeGreaterThan(10);
    expect(affected(reply.body.warnings)).toEqual([['present-flag'], ['my-custom']]);
    expect(reply.body.permissions).toEqual([]);
  });

  it('reports an unknown environment in the errors, and the naming pattern and feature limit of the project', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'strict', name: 'Strict', featureLimit: 1 });
    await stack.admin.put('/api/admin/projects/strict/settings', {
      featureNaming: { pattern: 'team-.+', example: 'team-a', description: null },
    });
    const reply = await stack.admin.post(
      VALIDATE,
      importData(
        { features: [{ name: 'team-one' }, { name: 'loose-name' }], featureStrategies: [] },
        'strict',
        'no-such-env',
      ),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.errors.map((entry: { affectedItems: string[] }) => entry.affectedItems)).toEqual([
      ['no-such-env'],
      ['loose-name'],
      ['loose-name', 'team-one'],
    ]);
  });

  it('lists the permissions the caller lacks for the import', async () => {
    await stack.admin.post('/api/admin/user-admin', {
      username: 'import-viewer',
      rootRole: 3,
      password: 'import-viewer-password',
    });
    const viewer = await loginAs(stack.url, 'import-viewer', 'import-viewer-password');
    const reply = await viewer.post(
      VALIDATE,
      importData({ contextFields: [{ name: 'another-new-field' }], tagTypes: [{ name: 'new-tag-type' }] }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.permissions).toHaveLength(1);
    expect(reply.body.permissions[0].affectedItems).toEqual([
      'CREATE_FEATURE',
      'CREATE_FEATURE_STRATEGY',
      'UPDATE_FEATURE_ENVIRONMENT',
      'CREATE_CONTEXT_FIELD',
      'CREATE_TAG_TYPE',
    ]);
  });

  it('refuses a body without data with 400 naming the field, an unknown project with 404, and no credentials with 401', async () => {
    const bad = await stack.admin.post(VALIDATE, { project: 'default', environment: 'development' });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    expect(JSON.stringify(bad.body)).toContain('data');
    const missing = await stack.admin.post(VALIDATE, importData({}, 'no-such-project'));
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    expect((await stack.anonymous.post(VALIDATE, importData())).status).toBe(401);
  });

  it('takes an export of megabytes, over the server-wide body limit, which other routes keep', async () => {
    const features = Array.from({ length: 150 }, (_, index) => ({ name: `bulk-${index}`, type: 'release' }));
    // Each strategy targets 1,000 user ids, as exports of real flags do: 150 flags make two megabytes.
    const users = Array.from({ length: 1000 }, (_, index) => `user-${String(index).padStart(6, '0')}`);
    const body = importData({
      features,
      featureStrategies: features.map((feature) => ({
        name: 'flexibleRollout',
        featureName: feature.name,
        parameters: { rollout: '50', stickiness: 'default', groupId: feature.name },
        constraints: [{ contextName: 'userId', operator: 'IN', values: users }],
      })),
      featureEnvironments: features.map((feature) => ({
        name: feature.name,
        featureName: feature.name,
        enabled: true,
      })),
    });
    expect(JSON.stringify(body).length).toBeGreaterThan(1.5 * 1024 * 1024);
    expect((await stack.admin.post(VALIDATE, body)).status).toBe(200);
    expect((await stack.admin.post('/api/admin/features-batch/import', body)).status).toBe(200);
    expect(
      (await stack.admin.get('/api/admin/projects/default/features/bulk-149')).body.environments.find(
        (environment: { name: string }) => environment.name === 'development',
      ).enabled,
    ).toBe(true);
    expect(
      (
        await stack.admin.post('/api/admin/projects/default/features', {
          name: 'too-big',
          description: 'x'.repeat(2 * 1024 * 1024),
        })
      ).status,
    ).toBe(413);
  }, 60_000);
});
