import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/testing';

let stack: TestStack;
const base = '/api/admin/projects/default/features';
const staleEvents = async () =>
  (await stack.admin.post('/api/admin/events/search', { type: 'feature-potentially-stale-on' })).body.events as { featureName: string; createdBy: string; project: string }[];

beforeAll(async () => {
  stack = await startTestStack({ env: { POTENTIALLY_STALE_CHECK_MS: '150' } });
});
afterAll(() => stack?.dispose());

it('records feature-potentially-stale-on once when a flag outlives its type lifetime', async () => {
  await stack.admin.post(base, { name: 'short-lived', type: 'operational' });
  await stack.admin.post(base, { name: 'long-lived', type: 'release' });
  await stack.admin.post(base, { name: 'already-stale', type: 'operational' });
  await stack.admin.patch(`${base}/already-stale`, [{ op: 'replace', path: '/stale', value: true }]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await staleEvents()).toEqual([]);

  expect((await stack.admin.put('/api/admin/feature-types/operational/lifetime', { lifetimeDays: 0 })).status).toBe(200);
  const events = await eventually(async () => {
    const found = await staleEvents();
    return found.length > 0 && found;
  });
  // Several more checks run; none repeats the event.
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(await staleEvents()).toHaveLength(1);
  expect(events[0]).toMatchObject({ featureName: 'short-lived', project: 'default', createdBy: 'unleash_system_user' });
  expect((await stack.admin.get('/api/admin/projects/default')).body.potentiallyStaleFeatureCount).toBe(1);
});
