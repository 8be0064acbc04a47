import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const base = '/api/admin/projects/default/features';
type StaleEvent = { featureName: string; createdBy: string; project: string };
const staleEvents = async () =>
  (await stack.admin.post('/api/admin/events/search', { type: 'feature-potentially-stale-on' })).body
    .events as StaleEvent[];
/** Waits until a check has marked `name`: every flag that check found is in the list returned. */
const afterMarked = (name: string) =>
  eventually(async () => {
    const found = await staleEvents();
    return found.some((event) => event.featureName === name) && found;
  });

beforeAll(async () => {
  stack = await startTestStack({ env: { POTENTIALLY_STALE_CHECK_MS: '150' } });
});
afterAll(() => stack?.dispose());

it('records feature-potentially-stale-on once when a flag outlives its type lifetime', async () => {
  await stack.admin.post(base, { name: 'short-lived', type: 'operational' });
  await stack.admin.post(base, { name: 'long-lived', type: 'release' });
  await stack.admin.post(base, { name: 'already-stale', type: 'operational' });
  await stack.admin.patch(`${base}/already-stale`, [{ op: 'replace', path: '/stale', value: true }]);
  // A marker flag of a type that expires at once: when it is marked, the flags above have been checked too.
  expect((await stack.admin.put('/api/admin/feature-types/experiment/lifetime', { lifetimeDays: 0 })).status).toBe(200);
  await stack.admin.post(base, { name: 'first-marker', type: 'experiment' });
  expect((await afterMarked('first-marker')).map((event) => event.featureName)).toEqual(['first-marker']);

  expect((await stack.admin.put('/api/admin/feature-types/operational/lifetime', { lifetimeDays: 0 })).status).toBe(
    200,
  );
  const events = await afterMarked('short-lived');
  expect(events.find((event) => event.featureName === 'short-lived')).toMatchObject({
    project: 'default',
    createdBy: 'unleash_system_user',
  });
  // Later checks run (a second marker is found by one of them); none marks short-lived again.
  await stack.admin.post(base, { name: 'second-marker', type: 'experiment' });
  const later = await afterMarked('second-marker');
  expect(later.map((event) => event.featureName).sort()).toEqual(['first-marker', 'second-marker', 'short-lived']);
  expect((await stack.admin.get('/api/admin/projects/default')).body.potentiallyStaleFeatureCount).toBe(3);
});
