import { expect } from 'vitest';
import { eventually, httpClient } from '@bunting/testing';

/**
 * A flag's whole life told over HTTP, checking after each step which events the log shows.
 * Shared by the all-in-one run and the run with services in separate processes.
 */
export async function runFlagLifecycle(baseUrl: string, adminToken: string) {
  const admin = httpClient(baseUrl, { authorization: adminToken });
  let lastSeenId = (await admin.get('/api/admin/events')).body.events[0]?.id ?? 0;

  async function expectEvents(expected: string[]) {
    const fresh = await eventually(
      async () => {
        const reply = await admin.get('/api/admin/events');
        const events = (reply.body.events as { id: number; type: string }[])
          .filter((event) => event.id > lastSeenId)
          .reverse();
        return events.length >= expected.length && events;
      },
      { timeoutMs: 10_000 },
    );
    expect(fresh.map((event) => event.type)).toEqual(expected);
    lastSeenId = fresh.at(-1)!.id;
    return fresh;
  }

  const project = await admin.post('/api/admin/projects', { id: 'shop', name: 'Shop', description: 'the web shop' });
  expect(project.status).toBe(201);
  await expectEvents(['project-created']);

  const environment = await admin.post('/api/admin/environments', {
    name: 'staging',
    type: 'preproduction',
    sortOrder: 5,
  });
  expect(environment.status).toBe(201);
  await expectEvents(['environment-created']);
  expect((await admin.get('/api/admin/projects/shop')).body.environments).toContain('staging');

  const created = await admin.post('/api/admin/projects/shop/features', {
    name: 'new-cart',
    description: 'the new cart',
    type: 'experiment',
  });
  expect(created.status).toBe(201);
  const [createdEvent] = await expectEvents(['feature-created']);
  expect(createdEvent).toMatchObject({ featureName: 'new-cart', project: 'shop' });

  const strategy = await admin.post('/api/admin/projects/shop/features/new-cart/environments/staging/strategies', {
    name: 'flexibleRollout',
    parameters: { rollout: '40', stickiness: 'userId' },
    constraints: [
      { contextName: 'country', operator: 'IN', values: ['NO', 'SE'] },
      { contextName: 'appVersion', operator: 'SEMVER_GT', value: '2.0.0' },
    ],
    variants: [
      {
        name: 'red',
        weight: 500,
        weightType: 'variable',
        stickiness: 'userId',
        payload: { type: 'json', value: '{"color":"red"}' },
      },
      { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'userId' },
    ],
  });
  expect(strategy.status).toBe(200);
  const [strategyEvent] = await expectEvents(['feature-strategy-add']);
  expect(strategyEvent).toMatchObject({
    environment: 'staging',
    data: { id: strategy.body.id, name: 'flexibleRollout' },
  });

  expect((await admin.post('/api/admin/projects/shop/features/new-cart/environments/staging/on')).status).toBe(200);
  await expectEvents(['feature-environment-enabled']);
  const feature = await admin.get('/api/admin/projects/shop/features/new-cart');
  expect(feature.body.environments.find((e: { name: string }) => e.name === 'staging')).toMatchObject({
    enabled: true,
    hasStrategies: true,
  });

  expect((await admin.post('/api/admin/tag-types', { name: 'squad' })).status).toBe(201);
  await expectEvents(['tag-type-created']);
  expect((await admin.post('/api/admin/features/new-cart/tags', { type: 'squad', value: 'checkout' })).status).toBe(
    201,
  );
  const tagEvents = await expectEvents(['tag-created', 'feature-tagged']);
  expect(tagEvents[1]).toMatchObject({ tags: [{ type: 'squad', value: 'checkout' }] });

  expect((await admin.delete('/api/admin/projects/shop/features/new-cart')).status).toBe(202);
  await expectEvents(['feature-archived']);
  expect((await admin.get('/api/admin/projects/shop/features')).body.features).toEqual([]);

  expect((await admin.post('/api/admin/archive/revive/new-cart')).status).toBe(200);
  await expectEvents(['feature-revived']);
  const revived = await admin.get('/api/admin/projects/shop/features/new-cart');
  expect(revived.body.archived).toBe(false);
  expect(revived.body.environments.every((e: { enabled: boolean }) => !e.enabled)).toBe(true);

  expect((await admin.delete('/api/admin/projects/shop/features/new-cart')).status).toBe(202);
  await expectEvents(['feature-archived']);
  expect((await admin.delete('/api/admin/archive/new-cart')).status).toBe(200);
  const [deleted] = await expectEvents(['feature-deleted']);
  expect(deleted).toMatchObject({ featureName: 'new-cart', preData: { name: 'new-cart', archived: true } });
  expect((await admin.get('/api/admin/projects/shop/features/new-cart')).status).toBe(404);

  const projectEvents = await admin.get('/api/admin/events?project=shop');
  expect(projectEvents.body.events.map((e: { type: string }) => e.type).reverse()).toEqual([
    'project-created',
    'feature-created',
    'feature-strategy-add',
    'feature-environment-enabled',
    'feature-tagged',
    'feature-archived',
    'feature-revived',
    'feature-archived',
    'feature-deleted',
  ]);
}
