import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unleash } from 'unleash-client';
import {
  eventually,
  httpClient,
  loginAs,
  startTestStack,
  type HttpClient,
  type TestStack,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * Impact metrics end to end: the real Node SDK defines a counter, a gauge and a histogram and sends them through
 * its normal metrics cycle; the query API answers what it sent (sums, rates, the gauge's last value and the
 * histogram's percentiles, checked against values worked out here), the catalogue lists them and Bunting's
 * Prometheus endpoint exposes them. Bad impact metrics are dropped and counted, never costing the post's flag counts.
 */
let stack: TestStack;
let client: HttpClient;
let sdk: Unleash;
const clientToken = 'default:development.impact-client';
const sent: unknown[] = [];

const BOUNDS = [0.1, 0.5, 1];
const OBSERVED = [0.05, 0.2, 0.3, 0.7, 2.0];

/** Prometheus' histogram_quantile over the observations, worked out directly from them. */
function expectedQuantile(q: number, observed: readonly number[], bounds: readonly number[]): number {
  const cumulative = bounds.map((bound) => observed.filter((value) => value <= bound).length);
  const rank = q * observed.length;
  const index = cumulative.findIndex((count) => count >= rank);
  if (index < 0) return bounds.at(-1)!;
  const lower = index === 0 ? 0 : bounds[index - 1]!;
  const below = index === 0 ? 0 : cumulative[index - 1]!;
  return lower + (bounds[index]! - lower) * ((rank - below) / (cumulative[index]! - below));
}

const query = (params: Record<string, string>) =>
  stack.admin.get(`/api/admin/impact-metrics/?${new URLSearchParams(params)}`);
const values = (answer: { body: { series: { data: [number, string][] }[] } }) =>
  answer.body.series.flatMap((series) => series.data.map(([, value]) => Number(value)));
const total = (answer: Parameters<typeof values>[0]) => values(answer).reduce((sum, value) => sum + value, 0);

/** Resolves when the SDK has posted impact metrics that include the metric named. */
const postedWith = (name: string) =>
  new Promise<void>((resolve) => {
    const check = (payload: { impactMetrics?: { name: string; samples: { value?: number; count?: number }[] }[] }) => {
      const metric = payload.impactMetrics?.find((one) => one.name === name);
      if (metric && metric.samples.some((sample) => (sample.value ?? sample.count ?? 0) > 0)) {
        sdk.off('sent', check);
        resolve();
      }
    };
    sdk.on('sent', check);
  });

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, IMPACT_METRICS_MAX_SERIES_PER_METRIC: '50' },
  });
  client = httpClient(stack.url, { authorization: clientToken });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'checkout-v2' });
  sdk = new Unleash({
    url: `${stack.url}/api/`,
    appName: 'impact-app',
    instanceId: 'impact-1',
    customHeaders: { Authorization: clientToken },
    refreshInterval: 60_000,
    metricsInterval: 300,
  });
  sdk.on('error', () => undefined);
  sdk.on('sent', (payload) => sent.push(payload));
  await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
  sdk.impactMetrics.defineCounter('checkout_errors', 'Checkouts that failed');
  sdk.impactMetrics.defineGauge('queue_depth', 'Orders waiting');
  sdk.impactMetrics.defineHistogram('checkout_seconds', 'Time to check out', BOUNDS);
}, 60_000);

afterAll(async () => {
  stopUnleashSdk(sdk);
  await stack?.dispose();
});

describe('impact metrics from the real Node SDK', () => {
  it('stores what the SDK sends through its metrics cycle and answers it through the query API', async () => {
    let posted = postedWith('checkout_errors');
    sdk.impactMetrics.incrementCounter('checkout_errors', 3);
    sdk.impactMetrics.updateGauge('queue_depth', 7);
    for (const value of OBSERVED) sdk.impactMetrics.observeHistogram('checkout_seconds', value);
    await posted;
    posted = postedWith('checkout_errors');
    sdk.impactMetrics.incrementCounter('checkout_errors', 4);
    sdk.impactMetrics.updateGauge('queue_depth', 12);
    await posted;

    // The counter: its increases add up whatever minutes they fell in; a rate is the increase over the step.
    await eventually(
      async () =>
        total(
          await query({ metricName: 'unleash_counter_checkout_errors', range: 'hour', aggregationMode: 'count' }),
        ) === 7,
      { timeoutMs: 15_000 },
    );
    const counted = await query({
      metricName: 'unleash_counter_checkout_errors',
      range: 'hour',
      aggregationMode: 'count',
    });
    expect(counted.status).toBe(200);
    expect(counted.body).toMatchObject({
      step: '1m',
      series: [{ metric: { __name__: 'unleash_counter_checkout_errors' } }],
    });
    expect(counted.body.series[0].data).toHaveLength(60);
    expect(Number(counted.body.end) - Number(counted.body.start)).toBe(59 * 60);
    expect(counted.body.labels).toMatchObject({
      appName: ['impact-app'],
      environment: ['development'],
      origin: ['sdk'],
    });
    const rate = await query({ metricName: 'unleash_counter_checkout_errors', range: 'hour', aggregationMode: 'rps' });
    expect(total(rate) * 60).toBeCloseTo(7, 6);
    // By its display name too, and over a day (steps of 15 minutes from the quarter-hour rows).
    const daily = await query({ metricName: 'checkout_errors', range: 'day', aggregationMode: 'count' });
    expect(daily.body.step).toBe('15m');
    expect(total(daily)).toBe(7);

    // The gauge: the last value sent.
    await eventually(
      async () =>
        values(await query({ metricName: 'unleash_gauge_queue_depth', range: 'hour', aggregationMode: 'avg' })).at(
          -1,
        ) === 12,
    );

    // The histogram: percentiles and the mean from the bucket counts.
    const histogram = (aggregationMode: string) =>
      query({ metricName: 'unleash_histogram_checkout_seconds', range: 'hour', aggregationMode });
    await eventually(async () => total(await histogram('count')) === OBSERVED.length);
    const [p50] = values(await histogram('p50'));
    expect(p50).toBeCloseTo(expectedQuantile(0.5, OBSERVED, BOUNDS), 9);
    expect(values(await histogram('p95'))[0]).toBeCloseTo(1, 9);
    expect(values(await histogram('avg'))[0]).toBeCloseTo(
      OBSERVED.reduce((sum, value) => sum + value, 0) / OBSERVED.length,
      9,
    );

    // Label selectors narrow the series; one matching nothing answers none.
    expect(
      total(
        await query({
          metricName: 'unleash_counter_checkout_errors',
          range: 'hour',
          aggregationMode: 'count',
          labels: JSON.stringify({ appName: ['impact-app'] }),
        }),
      ),
    ).toBe(7);
    expect(
      (
        await query({
          metricName: 'unleash_counter_checkout_errors',
          range: 'hour',
          aggregationMode: 'count',
          labels: JSON.stringify({ appName: ['another-app'] }),
        })
      ).body.series,
    ).toEqual([]);
  });

  it('lists the metrics with their type, help and source, and exposes them for Prometheus to scrape', async () => {
    const metadata = await stack.admin.get('/api/admin/impact-metrics/metadata');
    expect(metadata.status).toBe(200);
    expect(metadata.body.metrics).toEqual(
      expect.arrayContaining([
        {
          name: 'unleash_counter_checkout_errors',
          displayName: 'checkout_errors',
          help: 'Checkouts that failed',
          type: 'counter',
          source: 'internal',
        },
        {
          name: 'unleash_gauge_queue_depth',
          displayName: 'queue_depth',
          help: 'Orders waiting',
          type: 'gauge',
          source: 'internal',
        },
        {
          name: 'unleash_histogram_checkout_seconds',
          displayName: 'checkout_seconds',
          help: 'Time to check out',
          type: 'histogram',
          source: 'internal',
        },
      ]),
    );
    const exposition = await stack.anonymous.get('/internal-backstage/impact/metrics');
    expect(exposition.status).toBe(200);
    expect(exposition.headers.get('content-type')).toMatch(/^text\/plain/);
    // As Unleash exposes them: the SDK's name, origin and metric_type labels (a scrape relabels to the stored name).
    expect(exposition.text).toContain('# TYPE checkout_errors counter');
    expect(exposition.text).toMatch(/^checkout_errors\{origin="sdk",metric_type="counter"[^}]*\} 7$/m);
    expect(exposition.text).toMatch(/^queue_depth\{[^}]*metric_type="gauge"[^}]*\} 12$/m);
    expect(exposition.text).toMatch(/^checkout_seconds_bucket\{[^}]*le="0\.5"\} 3$/m);
    expect(exposition.text).not.toContain('unleash_counter_');
    expect(exposition.text).toMatch(/^checkout_seconds_bucket\{[^}]*le="\+Inf"\} 5$/m);
    expect(exposition.text).toMatch(/^checkout_seconds_count\{[^}]*\} 5$/m);
  });

  it('refuses an aggregation the type has not, labels that are not JSON, an unknown range, in the spec shape', async () => {
    const refused: Record<string, string>[] = [
      { metricName: 'unleash_counter_checkout_errors', range: 'hour', aggregationMode: 'p99' },
      { metricName: 'unleash_counter_checkout_errors', range: 'hour', aggregationMode: 'count', labels: '{not json' },
      { metricName: 'unleash_counter_checkout_errors', range: 'hour', aggregationMode: 'count', labels: '["appName"]' },
      { metricName: 'unleash_counter_checkout_errors', range: 'year', aggregationMode: 'count' },
    ];
    for (const params of refused) {
      const answer = await query(params);
      expect(answer.status, JSON.stringify(params)).toBe(400);
      expect(answer.body).toMatchObject({
        name: 'ValidationError',
        message: expect.any(String),
        id: expect.any(String),
      });
    }
    // An unknown metric has no series.
    expect(
      (await query({ metricName: 'unleash_counter_nothing_here', range: 'hour', aggregationMode: 'count' })).body
        .series,
    ).toEqual([]);
  });
});

describe('impact metrics in bad posts', () => {
  const dropsOf = async (stage: string) => {
    const text = (await stack.anonymous.get('/internal-backstage/prometheus')).text;
    return [
      ...text.matchAll(
        new RegExp(
          `^bunting_impact_metrics_dropped_total\\{stage="${stage}",reason="(\\w+)",environment="[^"]*"\\} (\\d+)`,
          'gm',
        ),
      ),
    ].reduce<Record<string, number>>(
      (sums, [, reason, count]) => ({ ...sums, [reason!]: (sums[reason!] ?? 0) + Number(count) }),
      {},
    );
  };

  it('drops wrong types, non-finite and negative values, huge names and too many samples, counting each, and keeps the flag counts', async () => {
    const before = await dropsOf('edge');
    const flagCountsBefore =
      (await stack.admin.get('/api/admin/client-metrics/features/checkout-v2')).body.totalUsage?.[0]?.yes ?? 0;
    const manyLabels = Array.from({ length: 10_000 }, (_, index) => ({ labels: { customer: `c${index}` }, value: 1 }));
    const body = {
      appName: 'bad-app',
      instanceId: 'bad-1',
      environment: 'development',
      bucket: {
        start: new Date().toISOString(),
        stop: new Date().toISOString(),
        toggles: { 'checkout-v2': { yes: 5, no: 1, variants: {} } },
      },
      impactMetrics: [
        { name: 'wrong_value', help: 'x', type: 'counter', samples: [{ value: 'twelve' }, { value: null }] },
        { name: 'not_a_number', help: 'x', type: 'gauge', samples: [{ value: 'NaN' }] },
        { name: 'negative', help: 'x', type: 'counter', samples: [{ value: -5 }] },
        { name: 'odd_type', help: 'x', type: 'summary', samples: [{ value: 1 }] },
        {
          name: 'broken_buckets',
          help: 'x',
          type: 'histogram',
          samples: [
            {
              count: 2,
              sum: 1,
              buckets: [
                { le: 1, count: 5 },
                { le: '+Inf', count: 2 },
              ],
            },
          ],
        },
        { name: 'per_customer', help: 'one series per customer', type: 'counter', samples: manyLabels },
        'not a metric',
      ],
    };
    // JSON has no NaN or Infinity; 1e999 parses as Infinity.
    const text = JSON.stringify(body).replace('"value":"NaN"', '"value":1e999');
    const answer = await client.call('POST', '/api/client/metrics', text, { 'content-type': 'application/json' });
    expect(answer.status).toBe(202);
    // A name of 900 kB (the post fits the body limit; a 1 MB one is refused whole, below).
    const longName = {
      appName: 'bad-app',
      bucket: { start: 0, stop: 0, toggles: {} },
      impactMetrics: [{ name: 'x'.repeat(900_000), help: 'x', type: 'counter', samples: [{ value: 1 }] }],
    };
    expect((await client.post('/api/client/metrics', longName)).status).toBe(202);

    const after = await eventually(async () => {
      const drops = await dropsOf('edge');
      return (drops.too_many_samples ?? 0) > (before.too_many_samples ?? 0) ? drops : undefined;
    });
    const grew = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(grew('invalid_value')).toBe(3);
    expect(grew('negative_counter')).toBe(1);
    expect(grew('invalid_type')).toBe(1);
    expect(grew('invalid_buckets')).toBe(1);
    expect(grew('invalid_name')).toBe(1);
    expect(grew('too_many_samples')).toBe(9000);
    expect(grew('malformed')).toBe(1);
    // Of the 1,000 samples kept, the metric may hold 50 series (this stack's limit): insights drops the rest, counted.
    await eventually(async () => ((await dropsOf('insights')).too_many_series ?? 0) >= 950);
    // The drops are counted as the run is read; its points are there once its transaction commits.
    const perCustomer = await eventually(async () => {
      const answer = await query({
        metricName: 'unleash_counter_per_customer',
        range: 'hour',
        aggregationMode: 'count',
      });
      return answer.body.labels?.customer ? answer : undefined;
    });
    expect(perCustomer.body.labels.customer).toHaveLength(50);
    expect(total(perCustomer)).toBe(50);
    // The flag counts of the same post were kept.
    await eventually(
      async () =>
        ((await stack.admin.get('/api/admin/client-metrics/features/checkout-v2')).body.totalUsage?.[0]?.yes ?? 0) >=
        flagCountsBefore + 5,
    );
  });

  it('refuses a post over the body limit (a 1 MB metric name) with the error shape, and accepts impact metrics without a bucket', async () => {
    const huge = await client.post('/api/client/metrics', {
      appName: 'bad-app',
      bucket: { start: 0, stop: 0, toggles: {} },
      impactMetrics: [{ name: 'y'.repeat(1024 * 1024), help: 'x', type: 'counter', samples: [{ value: 1 }] }],
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ name: expect.any(String), message: expect.any(String), id: expect.any(String) });
    expect(
      (
        await client.post('/api/client/metrics', {
          appName: 'bucketless',
          impactMetrics: [{ name: 'signups', help: 'Sign-ups', type: 'counter', samples: [{ value: 2 }] }],
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await client.post('/api/client/metrics', {
          appName: 'bucketless',
          bucket: null,
          impactMetrics: [{ name: 'signups', help: 'Sign-ups', type: 'counter', samples: [{ value: 3 }] }],
        })
      ).status,
    ).toBe(202);
    await eventually(
      async () =>
        total(await query({ metricName: 'unleash_counter_signups', range: 'hour', aggregationMode: 'count' })) === 5,
    );
  });

  it("takes Edge's bulk posts with impact metrics, from an SDK unless a sample names its origin (as Unleash)", async () => {
    const answer = await client.post('/api/client/metrics/bulk', {
      applications: [],
      metrics: [],
      impactMetrics: [
        {
          name: 'edge_requests',
          help: 'Requests through Edge',
          type: 'counter',
          samples: [{ labels: { appName: 'behind-edge' }, value: 9 }],
        },
      ],
    });
    expect(answer.status).toBe(202);
    await eventually(
      async () =>
        total(await query({ metricName: 'unleash_counter_edge_requests', range: 'hour', aggregationMode: 'count' })) ===
        9,
    );
    const labels = (
      await query({ metricName: 'unleash_counter_edge_requests', range: 'hour', aggregationMode: 'count' })
    ).body.labels;
    expect(labels).toMatchObject({ origin: ['sdk'], appName: ['behind-edge'], environment: ['development'] });
  });
});

describe('registering a metric', () => {
  it('lists it at zero before any SDK sends it, once however often it is registered', async () => {
    expect(
      (await stack.admin.post('/api/admin/impact-metrics/register', { name: 'orders_placed', type: 'counter' })).status,
    ).toBe(201);
    expect(
      (await stack.admin.post('/api/admin/impact-metrics/register', { name: 'orders_placed', type: 'counter' })).status,
    ).toBe(200);
    expect(
      (await stack.admin.post('/api/admin/impact-metrics/register', { name: '9-lives', type: 'counter' })).status,
    ).toBe(400);
    expect(
      (await stack.admin.post('/api/admin/impact-metrics/register', { name: 'fine', type: 'summary' })).status,
    ).toBe(400);
    expect((await stack.admin.get('/api/admin/impact-metrics/metadata')).body.metrics).toContainEqual({
      name: 'unleash_counter_orders_placed',
      displayName: 'orders_placed',
      help: '',
      type: 'counter',
      source: 'internal',
    });
    expect((await stack.anonymous.get('/internal-backstage/impact/metrics')).text).toMatch(/^orders_placed 0$/m);
  });
});

describe("charts on a flag's page", () => {
  const charts = '/api/admin/projects/default/features/checkout-v2/impact-metrics/config';
  const chart = {
    metricName: 'unleash_counter_checkout_errors',
    timeRange: 'day',
    aggregationMode: 'rps',
    labelSelectors: { appName: ['impact-app'] },
    yAxisMin: 'zero',
    title: 'Errors',
  };

  it("are added, changed by id and removed, each change an event the search finds by Unleash's name", async () => {
    const created = await stack.admin.post(charts, chart);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      ...chart,
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      displayName: 'checkout_errors',
      mode: 'write',
      step: '15m',
    });
    const id = created.body.id;
    const changed = await stack.admin.post(charts, { ...chart, id, timeRange: 'hour', title: 'Errors, last hour' });
    expect(changed.body).toMatchObject({ id, timeRange: 'hour', step: '1m', title: 'Errors, last hour' });
    expect((await stack.admin.get(charts)).body.configs).toEqual([changed.body]);
    await eventually(async () =>
      (await stack.admin.get('/api/admin/search/events?type=IS:impact-metric-updated')).body.events?.some(
        (event: { featureName: string; type: string }) =>
          event.featureName === 'checkout-v2' && event.type === 'feature-metadata-updated',
      ),
    );

    expect((await stack.admin.delete(`${charts}/${id}`)).status).toBe(200);
    expect((await stack.admin.delete(`${charts}/${id}`)).status).toBe(404);
    expect((await stack.admin.get(charts)).body.configs).toEqual([]);
    await eventually(
      async () =>
        (await stack.admin.get('/api/admin/search/events?type=IS:impact-metric-deleted')).body.events?.length > 0,
    );
  });

  it('are refused for a flag of another project or none, for bad input, and to a viewer', async () => {
    expect(
      (await stack.admin.post('/api/admin/projects/default/features/no-such-flag/impact-metrics/config', chart)).status,
    ).toBe(404);
    await stack.admin.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' });
    expect(
      (await stack.admin.get('/api/admin/projects/elsewhere/features/checkout-v2/impact-metrics/config')).status,
    ).toBe(404);
    for (const bad of [
      { ...chart, timeRange: 'year' },
      { ...chart, aggregationMode: 'median' },
      { ...chart, labelSelectors: { appName: 'impact-app' } },
      { ...chart, id: 'not-a-ulid' },
      { ...chart, metricName: '' },
    ]) {
      const answer = await stack.admin.post(charts, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body).toMatchObject({ name: 'ValidationError', message: expect.any(String) });
    }
    expect((await stack.admin.get(charts)).body.configs).toEqual([]);
    await stack.admin.post('/api/admin/user-admin', {
      email: 'viewer@example.com',
      name: 'Vi',
      rootRole: 3,
      password: 'a-long-password',
    });
    const viewer = await loginAs(stack.url, 'viewer@example.com', 'a-long-password');
    expect((await viewer.get(charts)).status).toBe(200);
    const refused = await viewer.post(charts, chart);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ name: 'NoAccessError' });
  });
});
