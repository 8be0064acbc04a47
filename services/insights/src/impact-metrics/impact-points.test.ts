import { describe, expect, it } from 'vitest';
import type { MetricsMessage } from '@bunting/contracts';
import { impactPointsOf, mergeImpactPoints } from './impact-points.ts';

const message = (impactMetrics: unknown, overrides: Partial<MetricsMessage> = {}): MetricsMessage =>
  ({
    kind: 'client-metrics',
    receivedAt: '2026-11-26T10:15:42.000Z',
    environment: 'production',
    tokenName: 't',
    body: { appName: 'shop', bucket: { start: 0, stop: 0, toggles: {} }, impactMetrics },
    ...overrides,
  }) as MetricsMessage;

describe('impact points', () => {
  it("adds the post's app, the token's environment and the origin to each sample, at the minute it arrived", () => {
    const dropped: string[] = [];
    const points = impactPointsOf(
      message([
        {
          name: 'checkout-errors',
          help: 'h',
          type: 'counter',
          samples: [{ labels: { environment: 'default', kind: 'card' }, value: 2 }],
        },
      ]),
      (reason) => dropped.push(reason),
    );
    expect(points).toEqual([
      {
        metric: 'unleash_counter_checkout_errors',
        type: 'counter',
        help: 'h',
        at: '2026-11-26T10:15:00.000Z',
        labels: { kind: 'card', environment: 'production', appName: 'shop', origin: 'sdk' },
        labelKey: JSON.stringify([
          ['appName', 'shop'],
          ['environment', 'production'],
          ['kind', 'card'],
          ['origin', 'sdk'],
        ]),
        value: 2,
        sum: null,
        bounds: null,
        buckets: null,
      },
    ]);
    expect(dropped).toEqual([]);
  });

  it("adds increases and observations of one series and minute, keeps a gauge's later value, drops a histogram of other bounds", () => {
    const dropped: string[] = [];
    const drop = (reason: string) => dropped.push(reason);
    const histogram = (le: number, count: number) => ({
      name: 'latency',
      help: 'h',
      type: 'histogram',
      samples: [
        {
          count,
          sum: count,
          buckets: [
            { le, count },
            { le: '+Inf', count },
          ],
        },
      ],
    });
    const points = [
      ...impactPointsOf(
        message([
          { name: 'c', help: 'h', type: 'counter', samples: [{ value: 2 }] },
          { name: 'g', help: 'h', type: 'gauge', samples: [{ value: 5 }] },
          histogram(1, 3),
        ]),
        drop,
      ),
      ...impactPointsOf(
        message([
          { name: 'c', help: 'h', type: 'counter', samples: [{ value: 3 }] },
          { name: 'g', help: 'h', type: 'gauge', samples: [{ value: 4 }] },
          histogram(1, 2),
          histogram(2, 9),
        ]),
        drop,
      ),
    ];
    const merged = mergeImpactPoints(points, drop);
    expect(merged.map((point) => [point.metric, point.value, point.buckets])).toEqual([
      ['unleash_counter_c', 5, null],
      ['unleash_gauge_g', 4, null],
      ['unleash_histogram_latency', 5, [5, 5]],
    ]);
    expect(dropped).toEqual(['bucket_mismatch']);
  });

  it('drops what admission refuses, counting each reason, and keeps the rest', () => {
    const dropped: string[] = [];
    const points = impactPointsOf(
      message([
        { name: 'fine', help: 'h', type: 'counter', samples: [{ value: 1 }, { value: -1 }, { value: 'x' }] },
        { name: '1st', help: 'h', type: 'counter', samples: [{ value: 1 }] },
        { name: 'helpless', type: 'counter', samples: [{ value: 1 }] },
        {
          name: 'labelled',
          help: 'h',
          type: 'gauge',
          samples: [{ labels: { 'a-b': 'x', nested: { no: 1 } }, value: 1 }],
        },
      ]),
      (reason) => dropped.push(reason),
    );
    expect(points.map((point) => point.value)).toEqual([1]);
    expect(dropped.sort()).toEqual([
      'invalid_labels',
      'invalid_name',
      'invalid_value',
      'missing_help',
      'negative_counter',
    ]);
  });

  it("uses the sample's own environment under an all-environments token, and origin sdk unless a sample names one", () => {
    const bulk = {
      kind: 'bulk-metrics',
      receivedAt: '2026-11-26T10:15:42.000Z',
      environment: '*',
      tokenName: 't',
      body: {
        impactMetrics: [
          {
            name: 'r',
            help: 'h',
            type: 'counter',
            samples: [{ labels: { appName: 'behind', environment: 'staging' }, value: 1 }],
          },
        ],
      },
    } as MetricsMessage;
    expect(impactPointsOf(bulk, () => undefined)[0]!.labels).toEqual({
      appName: 'behind',
      environment: 'staging',
      origin: 'sdk',
    });
  });
});
