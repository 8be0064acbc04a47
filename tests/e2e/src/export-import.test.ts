import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  eventLogTotalAfterMarker,
  eventually,
  httpClient,
  startTestStack,
  type HttpClient,
  type TestStack,
} from '@bunting/test-stack';

/**
 * Moving flags between installations: configure a project on one stack, export it, import it into a fresh one,
 * and check that the second answers every context as the first does.
 */
let source: TestStack;
let target: TestStack;
const frontendToken = 'shop:development.export-import-frontend';
const base = '/api/admin/projects/shop/features';
let exported: any;

async function configureSource(admin: HttpClient) {
  const segment = await admin.post('/api/admin/segments', {
    name: 'beta-users',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2', 'u3'] }],
  });
  expect(segment.status).toBe(201);
  expect(
    (
      await admin.post('/api/admin/context', {
        name: 'country',
        legalValues: [{ value: 'NO' }, { value: 'SE' }, { value: 'US' }],
      })
    ).status,
  ).toBe(201);
  expect((await admin.post('/api/admin/tag-types', { name: 'team', description: 'owning team' })).status).toBe(201);
  await admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
  expect(
    (
      await admin.post(base, {
        name: 'checkout',
        type: 'experiment',
        description: 'new checkout',
        impressionData: true,
      })
    ).status,
  ).toBe(201);
  await admin.post(`${base}/checkout/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '60', stickiness: 'userId', groupId: 'checkout' },
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE'] }],
    variants: [
      { name: 'fast', weight: 500, weightType: 'variable', stickiness: 'userId' },
      { name: 'safe', weight: 500, weightType: 'variable', stickiness: 'userId' },
    ],
  });
  await admin.post(`${base}/checkout/environments/development/strategies`, {
    name: 'default',
    segments: [segment.body.id],
  });
  await admin.put(`${base}/checkout/environments/development/variants`, [
    {
      name: 'env-variant',
      weight: 1000,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'string', value: 'hello' },
    },
  ]);
  expect((await admin.post('/api/admin/features/checkout/tags', { type: 'team', value: 'payments' })).status).toBe(201);
  await admin.post(`${base}/checkout/environments/development/on`);
  await admin.post(base, { name: 'checkout-banner' });
  await admin.post(`${base}/checkout-banner/dependencies`, { feature: 'checkout', variants: ['fast'] });
  await admin.post(`${base}/checkout-banner/environments/development/on`);
  await admin.post(base, { name: 'dark-mode', type: 'permission' });
  await admin.post(`${base}/dark-mode/environments/development/strategies`, {
    name: 'userWithId',
    parameters: { userIds: 'u1,u9' },
  });
}

beforeAll(async () => {
  [source, target] = await Promise.all([
    startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } }),
    startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } }),
  ]);
  await configureSource(source.admin);
}, 60_000);
afterAll(async () => {
  await Promise.all([source?.dispose(), target?.dispose()]);
});

/** The export without what differs between installations by nature: strategy and segment ids. */
function comparable(result: any) {
  return {
    ...result,
    featureStrategies: result.featureStrategies.map(({ id: _id, segments, ...strategy }: any) => ({
      ...strategy,
      segments: segments.length,
    })),
    segments: result.segments.map((segment: any) => segment.name),
  };
}

it('exports a project with everything its flags refer to, and records it', async () => {
  const reply = await source.admin.post('/api/admin/features-batch/export', {
    environment: 'development',
    project: 'shop',
    downloadFile: true,
  });
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}\.json"$/);
  exported = reply.body;
  expect(exported.features.map((feature: { name: string }) => feature.name).sort()).toEqual([
    'checkout',
    'checkout-banner',
    'dark-mode',
  ]);
  expect(exported.features.find((feature: { name: string }) => feature.name === 'checkout')).toEqual({
    name: 'checkout',
    type: 'experiment',
    description: 'new checkout',
    project: 'shop',
    stale: false,
    impressionData: true,
    archived: false,
  });
  // checkout-banner was enabled bare, so it got the default strategy.
  expect(exported.featureStrategies).toHaveLength(4);
  expect(
    exported.featureEnvironments.find((entry: { featureName: string }) => entry.featureName === 'checkout'),
  ).toMatchObject({ enabled: true, environment: 'development', variants: [{ name: 'env-variant' }] });
  expect(exported.contextFields.map((field: { name: string }) => field.name)).toEqual(['country']);
  expect(exported.segments).toEqual([{ id: expect.any(Number), name: 'beta-users' }]);
  expect(exported.featureTags).toEqual([{ featureName: 'checkout', tagType: 'team', tagValue: 'payments' }]);
  expect(exported.tagTypes).toEqual([{ name: 'team', description: 'owning team', icon: null }]);
  expect(exported.dependencies).toEqual([
    { feature: 'checkout-banner', dependencies: [{ feature: 'checkout', enabled: true, variants: ['fast'] }] },
  ]);

  const byTag = await source.admin.post('/api/admin/features-batch/export', {
    environment: 'development',
    tag: 'team:payments',
  });
  expect(byTag.body.features.map((feature: { name: string }) => feature.name)).toEqual(['checkout']);
  const named = await source.admin.post('/api/admin/features-batch/export', {
    environment: 'production',
    features: ['dark-mode', 'missing'],
  });
  expect(named.body.features.map((feature: { name: string }) => feature.name)).toEqual(['dark-mode']);
  expect(named.body.featureStrategies).toEqual([]);
  const events = await eventually(async () => {
    const found = (await source.admin.post('/api/admin/events/search', { type: 'features-exported' })).body.events;
    return found.length === 3 && found;
  });
  expect(events.at(-1)).toMatchObject({
    environment: 'development',
    data: { features: expect.arrayContaining(['checkout']) },
  });

  const bad = await source.admin.post('/api/admin/features-batch/export', { environment: 'development' });
  expect(bad.status).toBe(400);
  expect(bad.body.details[0].path).toBe('features');
  expect(
    (await source.admin.post('/api/admin/features-batch/export', { environment: 'nowhere', project: 'shop' })).status,
  ).toBe(404);
});

it('imports it into a fresh installation, which then answers as the source does', async () => {
  await target.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
  const missingSegment = await target.admin.post('/api/admin/features-batch/import', {
    project: 'shop',
    environment: 'development',
    data: exported,
  });
  expect(missingSegment.status).toBe(400);
  expect(missingSegment.body.name).toBe('ValidationError');
  expect(missingSegment.body.message).toContain('beta-users');
  expect((await target.admin.get(`${base}/checkout`)).status).toBe(404);

  await target.admin.post('/api/admin/segments', {
    name: 'beta-users',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2', 'u3'] }],
  });
  const validation = await target.admin.post('/api/admin/features-batch/validate', {
    project: 'shop',
    environment: 'development',
    data: exported,
  });
  expect(validation.body.errors).toEqual([]);
  const imported = await target.admin.post('/api/admin/features-batch/import', {
    project: 'shop',
    environment: 'development',
    data: exported,
  });
  expect(imported.status).toBe(200);

  const again = await target.admin.post('/api/admin/features-batch/export', {
    environment: 'development',
    project: 'shop',
  });
  expect(comparable(again.body)).toEqual(comparable(exported));

  const ask = (stack: TestStack, query: string) =>
    httpClient(stack.url, { authorization: frontendToken }).get(`/api/frontend?${query}`);
  const contexts = [
    'userId=u1',
    'userId=u2&properties[country]=NO',
    'userId=u9&properties[country]=SE',
    'userId=u7&properties[country]=US',
    'userId=x42&properties[country]=NO',
    'sessionId=s1',
  ];
  for (const query of contexts) {
    const expected = (await eventually(async () => (await ask(source, query)).body)).toggles;
    const answer = await eventually(async () => {
      const { body } = await ask(target, query);
      return JSON.stringify(body.toggles) === JSON.stringify(expected) && body.toggles;
    });
    expect(answer, query).toEqual(expected);
  }

  const types: string[] = await eventually(async () => {
    const found = (
      await target.admin.post('/api/admin/events/search', { project: 'shop', limit: 100 })
    ).body.events.map((event: { type: string }) => event.type);
    return found.includes('features-imported') && found;
  });
  expect(types.filter((type: string) => type === 'feature-created')).toHaveLength(3);
});

it('imports again over what is there, replacing the strategies', async () => {
  const edited = structuredClone(exported);
  edited.featureStrategies = edited.featureStrategies.filter(
    (strategy: { featureName: string }) => strategy.featureName !== 'dark-mode',
  );
  edited.featureEnvironments.find((entry: { featureName: string }) => entry.featureName === 'checkout').enabled = false;
  expect(
    (
      await target.admin.post('/api/admin/features-batch/import', {
        project: 'shop',
        environment: 'development',
        data: edited,
      })
    ).status,
  ).toBe(200);
  const darkMode = await target.admin.get(`${base}/dark-mode`);
  expect(darkMode.body.environments.find((e: { name: string }) => e.name === 'development').strategies).toEqual([]);
  const checkout = await target.admin.get(`${base}/checkout`);
  expect(checkout.body.environments.find((e: { name: string }) => e.name === 'development').enabled).toBe(false);
  expect(checkout.body.environments.find((e: { name: string }) => e.name === 'development').strategies).toHaveLength(2);
});

it('refuses bad import data as a whole, changing nothing', async () => {
  const before = await eventLogTotalAfterMarker(target.admin);
  const broken = structuredClone(exported);
  broken.features.push({ name: 'late-addition' });
  broken.featureStrategies.push({
    name: 'flexibleRollout',
    featureName: 'late-addition',
    constraints: [{ contextName: 'country', operator: 'LIKE', values: ['N%'] }],
  });
  const reply = await target.admin.post('/api/admin/features-batch/import', {
    project: 'shop',
    environment: 'development',
    data: broken,
  });
  expect(reply.status).toBe(400);
  expect(reply.body.details[0].path).toBe('data.featureStrategies.4.constraints.0.operator');
  expect((await target.admin.get(`${base}/late-addition`)).status).toBe(404);
  expect(
    (
      await target.admin.post('/api/admin/features-batch/import', {
        project: 'nope',
        environment: 'development',
        data: exported,
      })
    ).status,
  ).toBe(404);
  const sdk = await httpClient(target.url, { authorization: frontendToken }).post('/api/admin/features-batch/import', {
    project: 'shop',
    environment: 'development',
    data: exported,
  });
  expect(sdk.status).toBe(403);
  expect(await eventLogTotalAfterMarker(target.admin)).toBe(before + 1);
});

it('counts exports and imports in the instance statistics', async () => {
  const counted = await eventually(async () => {
    const { body } = await target.admin.get('/api/admin/instance-admin/statistics');
    return body.featureImports === 2 && body;
  });
  expect(counted.featureExports).toBe(1);
});
