import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { MetricsMessage } from '@bunting/contracts';
import { recordLastSeen, seenFlags } from './last-seen.ts';

const message = (kind: MetricsMessage['kind'], body: Record<string, unknown>, environment = 'development') =>
  MetricsMessage.parse({ kind, receivedAt: '2026-01-01T00:00:00.000Z', environment, tokenName: 't', body });

describe('seenFlags', () => {
  it('lists the flags evaluated at least once, from metrics only', () => {
    const body = {
      appName: 'app',
      bucket: {
        start: 0,
        stop: 0,
        toggles: { a: { yes: 1, no: 0 }, b: { yes: 0, no: 2 }, c: { yes: 0, no: 0 }, d: {} },
      },
    };
    expect(Object.fromEntries(seenFlags(message('client-metrics', body)))).toEqual({ development: ['a', 'b'] });
    expect(Object.fromEntries(seenFlags(message('frontend-metrics', body)))).toEqual({ development: ['a', 'b'] });
    expect(Object.fromEntries(seenFlags(message('client-register', { appName: 'app' })))).toEqual({});
  });

  it('reads bulk posts per environment, each within what the token may speak for', () => {
    const metrics = [
      { featureName: 'a', appName: 'x', environment: 'production', timestamp: 0, yes: 1, no: 0 },
      { featureName: 'b', appName: 'x', timestamp: 0, yes: 0, no: 1 },
      { featureName: 'c', appName: 'x', timestamp: 0, yes: 0, no: 0 },
    ];
    expect(Object.fromEntries(seenFlags(message('bulk-metrics', { metrics })))).toEqual({ development: ['b'] });
    expect(Object.fromEntries(seenFlags(message('bulk-metrics', { metrics }, '*')))).toEqual({
      production: ['a'],
      '*': ['b'],
    });
  });

  it('never sees a body that does not fit its kind: the contract refuses it on the stream', () => {
    expect(
      MetricsMessage.safeParse({
        kind: 'client-metrics',
        receivedAt: 'x',
        environment: 'd',
        tokenName: 't',
        body: { bucket: 'none' },
      }).success,
    ).toBe(false);
    expect(
      MetricsMessage.safeParse({
        kind: 'bulk-metrics',
        receivedAt: 'x',
        environment: 'd',
        tokenName: 't',
        body: { metrics: ['junk'] },
      }).success,
    ).toBe(false);
  });
});

describe('lastSeenAt from SDK metrics', () => {
  let stack: TestStack;
  const clientToken = 'default:development.last-seen-client';
  const base = '/api/admin/projects/default/features';
  beforeAll(async () => {
    stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
    await stack.admin.post(base, { name: 'reported' });
    await stack.admin.post(base, { name: 'quiet' });
  });
  afterAll(() => stack?.dispose());

  it('marks the flags an SDK evaluated, in the token environment', async () => {
    const client = httpClient(stack.url, { authorization: clientToken });
    const now = new Date().toISOString();
    const posted = await client.post('/api/client/metrics', {
      appName: 'shop',
      instanceId: 'i-1',
      bucket: {
        start: now,
        stop: now,
        toggles: { reported: { yes: 2, no: 1 }, quiet: { yes: 0, no: 0 }, 'no-such-flag': { yes: 1, no: 0 } },
      },
    });
    expect(posted.status).toBe(202);
    const feature = await eventually(async () => {
      const { body } = await stack.admin.get(`${base}/reported`);
      return body.lastSeenAt && body;
    });
    expect(Date.parse(feature.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    const byName = Object.fromEntries(
      feature.environments.map((e: { name: string; lastSeenAt: string | null }) => [e.name, e.lastSeenAt]),
    );
    expect(byName.development).toBe(feature.lastSeenAt);
    expect(byName.production).toBeNull();
    // The flag environment's yes/no: what SDKs reported in the last hour.
    const counts = Object.fromEntries(
      feature.environments.map((e: { name: string; yes: number; no: number }) => [e.name, [e.yes, e.no]]),
    );
    expect(counts).toMatchObject({ development: [2, 1], production: [0, 0] });
    expect((await stack.admin.get(`${base}/quiet`)).body.lastSeenAt).toBeNull();

    const bulk = await client.post('/api/client/metrics/bulk', {
      applications: [],
      metrics: [
        { featureName: 'quiet', appName: 'edge', environment: 'development', timestamp: now, yes: 1, no: 0 },
        { featureName: 'quiet', appName: 'edge', environment: 'production', timestamp: now, yes: 1, no: 0 },
      ],
    });
    expect(bulk.status).toBe(202);
    const quiet = await eventually(async () => {
      const { body } = await stack.admin.get(`${base}/quiet`);
      return body.lastSeenAt && body;
    });
    expect(quiet.environments.find((e: { name: string }) => e.name === 'development').lastSeenAt).toBe(
      quiet.lastSeenAt,
    );
    // The development token cannot speak for production.
    expect(quiet.environments.find((e: { name: string }) => e.name === 'production').lastSeenAt).toBeNull();
  });

  it('never marks or counts a flag of a project the token does not have, though the edge let the name through', async () => {
    // What an edge sends when a new flag of another project has not reached it yet: the name looked like no flag's.
    await stack.admin.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' });
    await stack.admin.post('/api/admin/projects/elsewhere/features', { name: 'not-yours' });
    await stack.admin.post(base, { name: 'yours' });
    const scoped = (projects: string[] | undefined, sequence: number) =>
      recordLastSeen(
        stack.db,
        MetricsMessage.parse({
          kind: 'client-metrics',
          receivedAt: new Date().toISOString(),
          environment: 'development',
          tokenName: 'scoped',
          ...(projects ? { projects } : {}),
          body: {
            appName: 'a',
            bucket: { start: 0, stop: 0, toggles: { 'not-yours': { yes: 5 }, yours: { yes: 1 } } },
          },
        }),
        sequence,
      );
    const development = async (project: string, name: string) =>
      (await stack.admin.get(`/api/admin/projects/${project}/features/${name}`)).body.environments.find(
        (e: { name: string }) => e.name === 'development',
      );
    await scoped(['default'], 9_100_001);
    expect(await development('default', 'yours')).toMatchObject({ yes: 1 });
    expect(await development('elsewhere', 'not-yours')).toMatchObject({ yes: 0, lastSeenAt: null });
    // A token of every project, or a message from before the projects were carried, counts for it.
    await scoped(['*'], 9_100_002);
    await scoped(undefined, 9_100_003);
    expect(await development('elsewhere', 'not-yours')).toMatchObject({ yes: 10 });
  });
});
