import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const names = (body: { features: { name: string }[] }) => body.features.map((feature) => feature.name);
const search = async (query: string) => (await stack.admin.get(`/api/admin/search/features?${query}`)).body;

beforeAll(async () => {
  stack = await startTestStack();
  const { admin } = stack;
  await admin.post('/api/admin/projects', { id: 'web', name: 'Web' });
  await admin.post('/api/admin/tag-types', { name: 'team' });
  const segment = await admin.post('/api/admin/segments', { name: 'beta', constraints: [] });
  await admin.post('/api/admin/projects/default/features', {
    name: 'checkout-v2',
    description: 'new checkout',
    type: 'release',
  });
  await admin.post('/api/admin/projects/default/features', { name: 'kill-payments', type: 'kill-switch' });
  await admin.post('/api/admin/projects/web/features', { name: 'dark-mode', type: 'experiment' });
  await admin.post('/api/admin/projects/web/features', { name: 'old-banner', type: 'release' });
  await admin.patch('/api/admin/projects/web/features/old-banner', [{ op: 'replace', path: '/stale', value: true }]);
  await admin.post('/api/admin/features/checkout-v2/tags', { type: 'team', value: 'payments' });
  await admin.post('/api/admin/features/kill-payments/tags', { type: 'team', value: 'payments' });
  await admin.post('/api/admin/features/kill-payments/tags', { type: 'simple', value: 'critical' });
  await admin.post('/api/admin/projects/web/features/dark-mode/environments/production/strategies', {
    name: 'default',
    segments: [segment.body.id],
  });
  await admin.post('/api/admin/projects/web/features/dark-mode/environments/production/on');
  await admin.post('/api/admin/projects/default/features', { name: 'retired' });
  await admin.delete('/api/admin/projects/default/features/retired');
  await admin.post('/api/admin/projects/web/favorites');
  await admin.post('/api/admin/projects/web/features/dark-mode/favorites');
});
afterAll(() => stack?.dispose());

it('finds flags by text in name, description, tags and segments', async () => {
  expect(names(await search('query=checkout&sortBy=name'))).toEqual(['checkout-v2']);
  expect(names(await search('query=payments&sortBy=name'))).toEqual(['checkout-v2', 'kill-payments']);
  expect(names(await search('query=beta'))).toEqual(['dark-mode']);
  expect(names(await search('query=NEW%20CHECKOUT'))).toEqual(['checkout-v2']);
});

it('filters with Unleash operators, sorts and pages', async () => {
  expect(names(await search('project=IS:web&sortBy=name'))).toEqual(['dark-mode', 'old-banner']);
  expect(names(await search('project=IS_NOT:web&sortBy=name'))).toEqual(['checkout-v2', 'kill-payments']);
  expect(names(await search('type=IS_ANY_OF:kill-switch,experiment&sortBy=name'))).toEqual([
    'dark-mode',
    'kill-payments',
  ]);
  expect(names(await search('state=IS:stale'))).toEqual(['old-banner']);
  expect(names(await search('tag=INCLUDE_ALL_OF:team:payments,simple:critical'))).toEqual(['kill-payments']);
  expect(names(await search('tag=DO_NOT_INCLUDE:team:payments&sortBy=name'))).toEqual(['dark-mode', 'old-banner']);
  expect(names(await search('segment=INCLUDE:beta'))).toEqual(['dark-mode']);
  expect(names(await search('status=production:enabled'))).toEqual(['dark-mode']);
  expect(names(await search('lifecycle=IS:live'))).toEqual(['dark-mode']);
  expect(names(await search('favorite=IS:true'))).toEqual(['dark-mode']);
  expect(names(await search('archived=IS:true'))).toEqual(['retired']);
  expect(names(await search('createdAt=IS_BEFORE:2000-01-01'))).toEqual([]);
  const paged = await search('sortBy=name&sortOrder=desc&limit=2&offset=1');
  expect(paged.total).toBe(4);
  expect(names(paged)).toEqual(['kill-payments', 'dark-mode']);
  expect(names(await search('favoritesFirst=true&sortBy=name'))[0]).toBe('dark-mode');
});

it('answers each flag in the reference shape', async () => {
  const [darkMode] = (await search('query=dark-mode')).features;
  expect(darkMode).toMatchObject({
    name: 'dark-mode',
    type: 'experiment',
    project: 'web',
    stale: false,
    favorite: true,
    impressionData: false,
    dependencyType: null,
    segments: ['beta'],
    tags: [],
    lifecycle: { stage: 'live' },
  });
  expect(darkMode.environments.find((e: { name: string }) => e.name === 'production')).toMatchObject({
    name: 'production',
    type: 'production',
    enabled: true,
    hasStrategies: true,
  });
  expect(darkMode.environments[0].strategies).toBeUndefined();
});

it('refuses filters it cannot read', async () => {
  for (const query of [
    'project=web',
    'tag=HAS:team:payments',
    'createdAt=IS_AFTER:2020-01-01',
    'limit=0',
    'sortOrder=up',
  ]) {
    const reply = await stack.admin.get(`/api/admin/search/features?${query}`);
    expect(reply.status, query).toBe(400);
    expect(reply.body.name).toBe('ValidationError');
  }
  expect((await stack.anonymous.get('/api/admin/search/features')).status).toBe(401);
});
