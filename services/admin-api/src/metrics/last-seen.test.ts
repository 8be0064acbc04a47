import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/testing';
import { seenFlags } from './last-seen.ts';

const message = (kind: 'client-metrics' | 'client-register' | 'frontend-metrics', body: Record<string, unknown>) =>
  ({ kind, receivedAt: '2026-01-01T00:00:00.000Z', environment: 'development', tokenName: 't', body });

describe('seenFlags', () => {
  it('lists the flags evaluated at least once, from metrics only', () => {
    const toggles = { a: { yes: 1, no: 0 }, b: { yes: 0, no: 2 }, c: { yes: 0, no: 0 }, d: { yes: 'x' }, e: 'junk' };
    const seen = (kind: Parameters<typeof message>[0], body: Record<string, unknown>) => Object.fromEntries(seenFlags(message(kind, body)));
    expect(seen('client-metrics', { bucket: { toggles } })).toEqual({ development: ['a', 'b'] });
    expect(seen('frontend-metrics', { bucket: { toggles } })).toEqual({ development: ['a', 'b'] });
    expect(seen('client-register', { bucket: { toggles } })).toEqual({});
    expect(seen('client-metrics', { bucket: 'none' })).toEqual({});
  });

  it('reads bulk posts per environment, each within what the token may speak for', () => {
    const metrics = [
      { featureName: 'a', appName: 'x', environment: 'production', yes: 1, no: 0 },
      { featureName: 'b', appName: 'x', yes: 0, no: 1 },
      { featureName: 'c', appName: 'x', yes: 0, no: 0 },
      'junk',
    ];
    expect(Object.fromEntries(seenFlags(message('client-metrics', { metrics })))).toEqual({ development: ['b'] });
    const fromWildcard = { ...message('client-metrics', { metrics }), environment: '*' };
    expect(Object.fromEntries(seenFlags(fromWildcard))).toEqual({ production: ['a'], '*': ['b'] });
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
      appName: 'shop', instanceId: 'i-1',
      bucket: { start: now, stop: now, toggles: { reported: { yes: 2, no: 1 }, quiet: { yes: 0, no: 0 }, 'no-such-flag': { yes: 1, no: 0 } } },
    });
    expect(posted.status).toBe(202);
    const feature = await eventually(async () => {
      const { body } = await stack.admin.get(`${base}/reported`);
      return body.lastSeenAt && body;
    });
    expect(Date.parse(feature.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    const byName = Object.fromEntries(feature.environments.map((e: { name: string; lastSeenAt: string | null }) => [e.name, e.lastSeenAt]));
    expect(byName.development).toBe(feature.lastSeenAt);
    expect(byName.production).toBeNull();
    expect((await stack.admin.get(`${base}/quiet`)).body.lastSeenAt).toBeNull();

    const bulk = await client.post('/api/client/metrics/bulk', {
      applications: [], metrics: [
        { featureName: 'quiet', appName: 'edge', environment: 'development', timestamp: now, yes: 1, no: 0 },
        { featureName: 'quiet', appName: 'edge', environment: 'production', timestamp: now, yes: 1, no: 0 },
      ],
    });
    expect(bulk.status).toBe(202);
    const quiet = await eventually(async () => {
      const { body } = await stack.admin.get(`${base}/quiet`);
      return body.lastSeenAt && body;
    });
    expect(quiet.environments.find((e: { name: string }) => e.name === 'development').lastSeenAt).toBe(quiet.lastSeenAt);
    // The development token cannot speak for production.
    expect(quiet.environments.find((e: { name: string }) => e.name === 'production').lastSeenAt).toBeNull();
  });
});
