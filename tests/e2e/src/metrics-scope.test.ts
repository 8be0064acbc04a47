import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, untilClientServes, type TestStack } from '@bunting/test-stack';
import { sql } from '@bunting/platform';

/** What an SDK may report metrics about: its token's projects' flags, and a bounded number of flags nobody has. */
let stack: TestStack;
const alphaToken = 'alpha:development.metrics-scope-client';
const everyProjectToken = '*:development.metrics-scope-all';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: `${alphaToken},${everyProjectToken}` } });
  await stack.admin.post('/api/admin/projects', { id: 'alpha', name: 'Alpha' });
  await stack.admin.post('/api/admin/projects', { id: 'beta', name: 'Beta' });
  await stack.admin.post('/api/admin/projects/alpha/features', { name: 'alpha-flag' });
  await stack.admin.post('/api/admin/projects/beta/features', { name: 'beta-flag' });
  // Gamma has no development environment: the SDK edge's development holds none of its flags, so their names look
  // like names no project has to it.
  await stack.admin.post('/api/admin/projects', { id: 'gamma', name: 'Gamma' });
  expect((await stack.admin.delete('/api/admin/projects/gamma/environments/development')).status).toBeLessThan(300);
  await stack.admin.post('/api/admin/projects/gamma/features', { name: 'gamma-flag' });
  // Until the SDK edge holds beta-flag, the name is one no project has, which a post may report (a bounded few):
  // the posts below are made once it knows whose flag it is.
  await untilClientServes(stack.url, everyProjectToken, 'beta-flag', { timeoutMs: 15_000 });
});
afterAll(() => stack?.dispose());

const bucket = (toggles: Record<string, { yes: number; no: number }>) => ({
  appName: 'scoped-app',
  instanceId: 'i-1',
  bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles },
});
const counted = async (flag: string) => {
  const { body } = await stack.admin.get(`/api/admin/client-metrics/features/${flag}`);
  return (body.data as { yes: number; no: number }[]).reduce((sum, hour) => sum + hour.yes + hour.no, 0);
};

describe('metrics from a token scoped to one project', () => {
  it("count for its own flags and never for another project's", async () => {
    const sdk = httpClient(stack.url, { authorization: alphaToken });
    expect(
      (
        await sdk.post(
          '/api/client/metrics',
          bucket({ 'alpha-flag': { yes: 3, no: 1 }, 'beta-flag': { yes: 50, no: 50 } }),
        )
      ).status,
    ).toBe(202);
    // A later post is the marker: once it is counted, the first one has been handled too.
    expect((await sdk.post('/api/client/metrics', bucket({ 'alpha-flag': { yes: 1, no: 0 } }))).status).toBe(202);
    await eventually(async () => (await counted('alpha-flag')) === 5, { timeoutMs: 15_000 });
    expect(await counted('beta-flag')).toBe(0);
    const bulk = await sdk.post('/api/client/metrics/bulk', {
      metrics: [
        { featureName: 'beta-flag', appName: 'edge', environment: 'development', timestamp: Date.now(), yes: 9, no: 9 },
        {
          featureName: 'alpha-flag',
          appName: 'edge',
          environment: 'development',
          timestamp: Date.now(),
          yes: 2,
          no: 0,
        },
      ],
    });
    expect(bulk.status).toBe(202);
    await eventually(async () => (await counted('alpha-flag')) === 7, { timeoutMs: 15_000 });
    expect(await counted('beta-flag')).toBe(0);
  });

  it('count for no flag of another project the edge does not hold, found out where the counts are kept', async () => {
    // Insights learns whose flag it is from the event stream; the check is meant for once it has.
    await eventually(
      () => stack.db.exists(sql.unsafe`select 1 from insights.feature_projects where feature_name = 'gamma-flag'`),
      { timeoutMs: 15_000 },
    );
    const sdk = httpClient(stack.url, { authorization: alphaToken });
    const before = await counted('alpha-flag');
    expect(
      (
        await sdk.post(
          '/api/client/metrics',
          bucket({ 'gamma-flag': { yes: 40, no: 2 }, 'alpha-flag': { yes: 1, no: 0 } }),
        )
      ).status,
    ).toBe(202);
    await eventually(async () => (await counted('alpha-flag')) === before + 1, { timeoutMs: 15_000 });
    expect(await counted('gamma-flag')).toBe(0);
    // The token that may speak for every project counts for it: what keeps gamma's counts out is the token's scope.
    const everyProject = httpClient(stack.url, { authorization: everyProjectToken });
    expect((await everyProject.post('/api/client/metrics', bucket({ 'gamma-flag': { yes: 1, no: 0 } }))).status).toBe(
      202,
    );
    await eventually(async () => (await counted('gamma-flag')) === 1, { timeoutMs: 15_000 });
  });

  it('keep at most 100 names no project has from one post', async () => {
    const sdk = httpClient(stack.url, { authorization: alphaToken });
    const toggles = Object.fromEntries(
      Array.from({ length: 15_000 }, (_, index) => [`ghost-${index}`, { yes: 1, no: 0 }]),
    );
    expect((await sdk.post('/api/client/metrics', bucket(toggles))).status).toBe(202);
    const unknown = await eventually(
      async () => {
        const { body } = await stack.admin.get('/api/admin/metrics/unknown-flags');
        return body.unknownFlags.length > 0 && body.unknownFlags;
      },
      { timeoutMs: 15_000 },
    );
    expect(unknown.length).toBe(100);
  });
});
