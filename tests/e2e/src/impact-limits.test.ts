import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Impact metrics are bounded per environment and per application within it: a development token that fills its
 * share cannot keep a production application's new metric or series out (which would blind a production
 * safeguard), and drops are counted by the environment they came from.
 */
const development = 'default:development.limits-dev';
const production = 'default:production.limits-prod';
let stack: TestStack;

const post = (token: string, appName: string, metrics: { name: string; series: number }[]) =>
  httpClient(stack.url, { authorization: token }).post('/api/client/metrics', {
    appName,
    instanceId: `${appName}-1`,
    bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} },
    impactMetrics: metrics.map(({ name, series }) => ({
      name,
      help: name,
      type: 'counter',
      samples: Array.from({ length: series }, (_, index) => ({ labels: { customer: `c${index}` }, value: 1 })),
    })),
  });

/**
 * The series kept of a metric in an environment (and application). The exposition for Prometheus adds those up as
 * Unleash's does (it names neither), so they are counted where the insights service keeps them.
 */
const seriesOf = async (metric: string, environment: string, app?: string) => {
  const client = new pg.Client({ connectionString: stack.isolation.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from insights.impact_series
        where metric = $1 and labels->>'environment' = $2 and ($3::text is null or labels->>'appName' = $3)`,
      [`unleash_counter_${metric}`, environment, app ?? null],
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
};

const dropsIn = async (environment: string) => {
  const text = (await stack.anonymous.get('/internal-backstage/prometheus')).text;
  return [
    ...text.matchAll(
      new RegExp(
        `^bunting_impact_metrics_dropped_total\\{stage="insights",reason="(\\w+)",environment="${environment}"\\} (\\d+)`,
        'gm',
      ),
    ),
  ].reduce<Record<string, number>>(
    (sums, [, reason, count]) => ({ ...sums, [reason!]: (sums[reason!] ?? 0) + Number(count) }),
    {},
  );
};

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: `${development},${production}`,
      IMPACT_METRICS_MAX_METRICS: '3',
      IMPACT_METRICS_MAX_SERIES_PER_METRIC: '4',
      IMPACT_METRICS_MAX_SERIES_PER_ENVIRONMENT: '10',
    },
  });
}, 60_000);
afterAll(() => stack?.dispose());

describe('impact metric limits', () => {
  it("keep one environment's flood out of another's metrics and series, and count drops by environment", async () => {
    // Development fills every limit: more metrics than it may have, more series than each app and the environment may.
    expect(
      (
        await post(development, 'dev-app', [
          { name: 'dev_a', series: 8 },
          { name: 'dev_b', series: 8 },
          { name: 'dev_c', series: 8 },
          { name: 'dev_d', series: 2 },
        ])
      ).status,
    ).toBe(202);
    expect((await post(development, 'dev-other', [{ name: 'dev_a', series: 8 }])).status).toBe(202);
    const dropped = await eventually(
      async () => {
        const drops = await dropsIn('development');
        return (drops.too_many_metrics ?? 0) >= 2 && (drops.too_many_series ?? 0) > 0 && drops;
      },
      { timeoutMs: 20_000 },
    );
    expect(dropped.too_many_metrics).toBe(2);
    expect(await seriesOf('dev_d', 'development')).toBe(0);
    // Development's total stayed within its environment's bound.
    const developmentSeries = (
      await Promise.all(['dev_a', 'dev_b', 'dev_c'].map((name) => seriesOf(name, 'development', 'dev-app')))
    ).reduce((sum, count) => sum + count, 0);
    expect(developmentSeries).toBeLessThanOrEqual(10);

    // Production's new metric and series are kept in full, for each of its applications.
    expect(
      (
        await post(production, 'checkout', [
          { name: 'checkout_errors', series: 4 },
          { name: 'dev_a', series: 2 },
        ])
      ).status,
    ).toBe(202);
    expect((await post(production, 'payments', [{ name: 'checkout_errors', series: 3 }])).status).toBe(202);
    await eventually(async () => (await seriesOf('checkout_errors', 'production', 'payments')) === 3, {
      timeoutMs: 20_000,
    });
    expect(await seriesOf('checkout_errors', 'production', 'checkout')).toBe(4);
    expect(await seriesOf('dev_a', 'production')).toBe(2);
    // One application over its share of a metric leaves the other's alone.
    expect((await post(production, 'checkout', [{ name: 'checkout_errors', series: 6 }])).status).toBe(202);
    expect((await post(production, 'payments', [{ name: 'checkout_errors', series: 4 }])).status).toBe(202);
    await eventually(async () => (await seriesOf('checkout_errors', 'production', 'payments')) === 4, {
      timeoutMs: 20_000,
    });
    expect(await seriesOf('checkout_errors', 'production', 'checkout')).toBe(4);
    expect((await dropsIn('production')).too_many_series).toBe(2);
    expect((await dropsIn('production')).too_many_metrics).toBeUndefined();
  });
});
