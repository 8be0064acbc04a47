import { describe, expect, it } from 'vitest';
import { MetricsMessage } from '@bunting/contracts';
import { bucketHour, metricFacts } from './metric-facts.ts';

const receivedAt = '2026-03-05T10:42:00.000Z';
const message = (body: Record<string, unknown>, kind: MetricsMessage['kind'] = 'client-metrics') =>
  MetricsMessage.parse({ kind, receivedAt, environment: 'production', tokenName: 't', body });

describe('bucketHour', () => {
  it('takes the bucket start unless it is missing or more than two days off', () => {
    expect(bucketHour('2026-03-05T09:59:59.000Z', receivedAt).toISOString()).toBe('2026-03-05T09:00:00.000Z');
    expect(bucketHour(Date.parse('2026-03-04T23:30:00.000Z'), receivedAt).toISOString()).toBe(
      '2026-03-04T23:00:00.000Z',
    );
    expect(bucketHour('1999-01-01T00:00:00.000Z', receivedAt).toISOString()).toBe('2026-03-05T10:00:00.000Z');
    expect(bucketHour('not a date', receivedAt).toISOString()).toBe('2026-03-05T10:00:00.000Z');
    expect(bucketHour(undefined, receivedAt).toISOString()).toBe('2026-03-05T10:00:00.000Z');
  });
});

describe('metricFacts', () => {
  it('reads an SDK bucket, skipping names too long to keep', () => {
    const facts = metricFacts(
      message({
        appName: 'shop',
        instanceId: 'i',
        bucket: {
          start: receivedAt,
          stop: receivedAt,
          toggles: {
            a: { yes: 2, no: 1, variants: { blue: 2 } },
            b: {},
            '': { yes: 1 },
            ['x'.repeat(256)]: { yes: 1 },
          },
        },
      }),
    );
    expect(facts.apps).toEqual(['shop']);
    expect(facts.rows).toEqual([
      {
        hour: '2026-03-05T10:00:00.000Z',
        app: 'shop',
        environment: 'production',
        feature: 'a',
        yes: 2,
        no: 1,
        variants: [['blue', 2]],
      },
      {
        hour: '2026-03-05T10:00:00.000Z',
        app: 'shop',
        environment: 'production',
        feature: 'b',
        yes: 0,
        no: 0,
        variants: [],
      },
    ]);
  });

  it('never sees nonsense counts: the contract refuses them at the edge and on the stream', () => {
    const bad = {
      appName: 'shop',
      bucket: { start: receivedAt, stop: receivedAt, toggles: { b: { yes: -4, no: 'x' } } },
    };
    expect(
      MetricsMessage.safeParse({
        kind: 'client-metrics',
        receivedAt,
        environment: 'production',
        tokenName: 't',
        body: bad,
      }).success,
    ).toBe(false);
  });

  it('reads a registration as an app seen with what it says of itself, without counts', () => {
    const registration = message(
      { appName: 'shop', instanceId: 'i', sdkVersion: 'unleash-client-node:6.12.1', strategies: ['default'] },
      'client-register',
    );
    expect(metricFacts(registration)).toEqual({
      apps: ['shop'],
      rows: [],
      registration: { app: 'shop', sdkVersion: 'unleash-client-node:6.12.1', strategies: ['default'] },
      instances: [
        {
          app: 'shop',
          instanceId: 'i',
          environment: 'production',
          sdkVersion: 'unleash-client-node:6.12.1',
          frontend: false,
        },
      ],
    });
  });

  it('reads a bulk post of many apps, within the token environment', () => {
    const facts = metricFacts(
      message(
        {
          applications: [
            { appName: 'edge-app', instanceId: 'e' },
            { appName: 'elsewhere', instanceId: 'x', environment: 'development' },
          ],
          metrics: [
            {
              featureName: 'a',
              appName: 'web',
              environment: 'production',
              timestamp: '2026-03-05T09:10:00.000Z',
              yes: 5,
              no: 0,
            },
            { featureName: 'c', appName: 'web', environment: 'development', timestamp: 1, yes: 5, no: 0 },
            { featureName: 'b', appName: 'api', timestamp: 1, yes: 1, no: 1, variants: { red: 1 } },
          ],
        },
        'bulk-metrics',
      ),
    );
    // An application in another environment than the token's is not recorded.
    expect(facts.apps.sort()).toEqual(['api', 'edge-app', 'web']);
    expect(facts.instances).toEqual([
      { app: 'edge-app', instanceId: 'e', environment: 'production', sdkVersion: null, frontend: false },
    ]);
    expect(facts.rows).toEqual([
      {
        hour: '2026-03-05T09:00:00.000Z',
        app: 'web',
        environment: 'production',
        feature: 'a',
        yes: 5,
        no: 0,
        variants: [],
      },
      {
        hour: '2026-03-05T10:00:00.000Z',
        app: 'api',
        environment: 'production',
        feature: 'b',
        yes: 1,
        no: 1,
        variants: [['red', 1]],
      },
    ]);
  });
});
