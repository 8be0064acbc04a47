import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SnapshotView } from '@bunting/contracts';
import { askView } from '@bunting/platform';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * A change to one flag (a new one too) reads only that flag again and patches the held snapshot: after a run of such
 * changes, what the edge stored is exactly what reading the whole environment gives, in the same order.
 */
let stack: TestStack;
const clientToken = 'default:development.patching-client';
const project = '/api/admin/projects/default';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
});
afterAll(() => stack?.dispose());

type Stored = { revision: number; snapshot: unknown; changed?: { from: number; features: string[] } };
const stored = async (): Promise<Stored> => JSON.parse(gunzipSync((await stack.redis.getBuffer(`${stack.isolation.namespace}:snapshot:development`))!).toString('utf8'));
const servedAnswer = () => httpClient(stack.url, { authorization: clientToken }).get('/api/client/features');
const served = async () => (await servedAnswer()).headers.get('etag');
/** The stored copy once it holds the revision served (a patched revision's copy is written a moment after it is served). */
const storedAsServed = async (): Promise<Stored> => {
  const revision = (await servedAnswer()).body.meta.revisionId as number;
  let copy!: Stored;
  await eventually(async () => (copy = await stored()).revision >= revision);
  return copy;
};

it('patches the held snapshot flag by flag, ending where a whole read ends', async () => {
  const { body: segment } = await stack.admin.post('/api/admin/segments', { name: 'beta-testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }] });
  for (const name of ['alpha', 'beta', 'gamma']) {
    expect((await stack.admin.post(`${project}/features`, { name })).status).toBe(201);
    await stack.admin.post(`${project}/features/${name}/environments/development/on`);
  }
  // The edge holds development once an SDK has asked; wait until it holds the flags made so far.
  const allOn = async () => {
    const snapshot = (await stored().catch(() => null))?.snapshot as { features: { name: string; enabled: boolean }[] } | undefined;
    return snapshot?.features.filter((feature) => feature.enabled).length === 3;
  };
  await eventually(async () => (await served()) !== null && allOn());
  const before = (await stored()).revision;
  let etag = await served();

  const changes: (() => Promise<{ status: number }>)[] = [
    () => stack.admin.post(`${project}/features/alpha/environments/development/strategies`, {
      name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'alpha' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['shop'] }], segments: [segment.id],
    }),
    () => stack.admin.put(`${project}/features/beta/environments/development/variants`, [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }]),
    () => stack.admin.post('/api/admin/features/beta/tags', { type: 'simple', value: 'checkout' }),
    () => stack.admin.post(`${project}/features/gamma/environments/development/off`),
    () => stack.admin.post(`${project}/features/beta/dependencies`, { feature: 'alpha' }),
    () => stack.admin.delete(`${project}/features/gamma`),
    () => stack.admin.post(`${project}/features`, { name: 'Beta-2' }),
    () => stack.admin.post(`${project}/features/alpha/environments/development/off`),
  ];
  const patched: (string[] | undefined)[] = [];
  for (const change of changes) {
    expect((await change()).status).toBeLessThan(300);
    // Each change reaches the edge before the next, so each is patched on its own.
    await eventually(async () => {
      const now = await served();
      const moved = now !== etag;
      etag = now;
      return moved;
    });
    patched.push((await storedAsServed()).changed?.features);
  }
  // Each was patched, reading the flag changed (and any whose event came after the snapshot before was read).
  ['alpha', 'beta', 'beta', 'gamma', 'beta', 'gamma', 'Beta-2', 'alpha'].forEach((flag, index) => expect(patched[index]).toContain(flag));
  expect(patched.at(-1)).toEqual(['alpha']);

  const whole = await askView(stack.messaging, SnapshotView, { environment: 'development' });
  const last = await storedAsServed();
  expect(last.snapshot).toEqual(whole);
  expect(last.revision).toBeGreaterThan(before);
});
