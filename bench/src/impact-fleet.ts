import pg from 'pg';
import { httpClient, type HttpClient } from '@bunting/test-stack';
import { round, summarize } from './stats.ts';

type ImpactFleetOptions = {
  url: string;
  admin: HttpClient;
  clientToken: string;
  databaseUrl: string;
  apps: number;
  instancesPerApp: number;
  intervalSeconds: number;
  seconds: number;
  /** Queries of a day's range timed at the end. */
  queries: number;
  /** An experiment on scale-1's variants reading fleet_errors: its results are timed at the end. */
  experiment: string;
};

const COUNTERS = ['fleet_requests', 'fleet_errors', 'fleet_signups', 'fleet_logins', 'fleet_searches'];
const GAUGES = ['fleet_queue_depth', 'fleet_memory_mb'];
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** fleet_requests carries a shard label: 10 values an app, so 1,000 series at 100 apps. */
const SHARDS = 10;

const query = (admin: HttpClient, metricName: string, range: string) =>
  admin.get(
    `/api/admin/impact-metrics/?${new URLSearchParams({ metricName, range, aggregationMode: 'count', mode: 'display' })}`,
  );
const sumOf = (answer: { body: { series?: { data: [number, string][] }[] } }) =>
  (answer.body.series ?? []).flatMap((series) => series.data).reduce((sum, [, value]) => sum + Number(value), 0);

/** scale-1 runs an experiment on two variants, reading fleet_errors, which the fleet labels with the variant. */
export async function startFleetExperiment(admin: HttpClient): Promise<string> {
  const flag = '/api/admin/projects/default/features/scale-1';
  await admin.put(`${flag}/environments/development/variants`, [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
  ]);
  const experiment = await admin.post(`${flag}/experiments`, {
    name: 'Fleet errors by variant',
    environment: 'development',
    controlVariant: 'blue',
    metrics: [{ metricName: 'fleet_errors', role: 'primary', better: 'decrease' }],
  });
  if (experiment.status !== 201) throw new Error(`experiment: ${experiment.status} ${experiment.text}`);
  return experiment.body.id as string;
}

/** Which of scale-1's variants an instance's users see (half the fleet each). */
const variantOf = (index: number) => (index % 2 === 0 ? 'blue' : 'green');

/** What one SDK instance's post holds: 5 counters (one per shard), 2 gauges and a histogram of 20 observations. */
function impactMetricsOf(index: number) {
  const histogram = new Array<number>(BOUNDS.length + 1).fill(0);
  let sum = 0;
  for (let observation = 0; observation < 20; observation += 1) {
    const value = ((index * 31 + observation * 17) % 1000) / 400;
    sum += value;
    BOUNDS.forEach((bound, at) => {
      if (value <= bound) histogram[at]! += 1;
    });
    histogram[BOUNDS.length]! += 1;
  }
  return [
    ...COUNTERS.map((name, offset) => ({
      name,
      help: `The fleet's ${name}`,
      type: 'counter',
      samples:
        name === 'fleet_requests'
          ? [{ labels: { shard: String(index % SHARDS) }, value: 1 + ((index + offset) % 9) }]
          : name === 'fleet_errors'
            ? // Labelled with the variant of scale-1 the instance's users got, as an experiment reads it.
              [{ labels: { 'scale-1': variantOf(index) }, value: (index + offset) % 4 }]
            : [{ value: (index + offset) % 4 }],
    })),
    ...GAUGES.map((name, offset) => ({
      name,
      help: `The fleet's ${name}`,
      type: 'gauge',
      samples: [{ value: (index * (offset + 3)) % 100 }],
    })),
    {
      name: 'fleet_latency_seconds',
      help: 'Request latency',
      type: 'histogram',
      samples: [
        {
          count: 20,
          sum,
          buckets: [...BOUNDS.map((le, at) => ({ le, count: histogram[at]! })), { le: '+Inf', count: 20 }],
        },
      ],
    },
  ];
}

/**
 * A fleet of SDK instances each posting 5 counters, 2 gauges and a histogram with its flag counts every
 * `intervalSeconds` (spread over the interval) for `seconds`. Reports posts accepted per second and their p99, the
 * lag until a marker counter shows in the query API while the fleet posts, the rows insights keeps against the bound
 * (series x periods), the query p99 for a day's range of a metric with 1,000 series after a day of its points, and
 * the time to read an experiment's results from the variant-labelled counter the fleet sent.
 */
export async function measureImpactFleet(options: ImpactFleetOptions) {
  const client = httpClient(options.url, { authorization: options.clientToken });
  const db = new pg.Client({ connectionString: options.databaseUrl });
  await db.connect();
  let posts = 0;
  let refused = 0;
  const latencies: number[] = [];
  const lags: number[] = [];
  const started = Date.now();
  const ends = started + options.seconds * 1000;

  const instance = async (app: number, copy: number) => {
    const instances = options.apps * options.instancesPerApp;
    const index = app * options.instancesPerApp + copy;
    await new Promise((resolve) => setTimeout(resolve, (index / instances) * options.intervalSeconds * 1000));
    while (Date.now() < ends) {
      const now = new Date().toISOString();
      const at = performance.now();
      const reply = await client.post('/api/client/metrics', {
        appName: `impact-app-${app}`,
        instanceId: `impact-${index}`,
        bucket: {
          start: now,
          stop: now,
          toggles: {
            'scale-1': { yes: 10, no: 0, variants: { [variantOf(index)]: 10 } },
            'scale-2': { yes: 0, no: 1 },
          },
        },
        impactMetrics: impactMetricsOf(index),
      });
      latencies.push(performance.now() - at);
      posts += 1;
      if (reply.status >= 300) refused += 1;
      await new Promise((resolve) => setTimeout(resolve, options.intervalSeconds * 1000));
    }
  };

  // Every five seconds one increase of a marker counter, timed until the query API's sum shows it.
  const marker = async () => {
    while (Date.now() < ends - 5000) {
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const before = sumOf(await query(options.admin, 'unleash_counter_fleet_marker', 'hour'));
      const at = performance.now();
      await client.post('/api/client/metrics', {
        appName: 'impact-marker',
        impactMetrics: [{ name: 'fleet_marker', help: 'marker', type: 'counter', samples: [{ value: 1 }] }],
      });
      while (
        sumOf(await query(options.admin, 'unleash_counter_fleet_marker', 'hour')) === before &&
        performance.now() - at < 30_000
      )
        await new Promise((resolve) => setTimeout(resolve, 20));
      lags.push(performance.now() - at);
    }
  };

  try {
    const instances = Array.from({ length: options.apps }, (_, app) =>
      Array.from({ length: options.instancesPerApp }, (_, copy) => instance(app, copy)),
    ).flat();
    await Promise.all([...instances, marker()]);
    const latency = summarize(latencies);
    const lag = summarize(lags);

    // What is kept against the bound: a row per series and period, whatever the number of posts.
    const rows = new Map(
      (
        await db.query(
          'select resolution, count(*)::int as rows, count(distinct at)::int as periods from insights.impact_points group by resolution',
        )
      ).rows.map((row: { resolution: number; rows: number; periods: number }) => [row.resolution, row]),
    );
    const series = Number((await db.query('select count(*)::int as count from insights.impact_series')).rows[0].count);
    const minutes = rows.get(60) ?? { rows: 0, periods: 0 };

    // A day of quarter-hour points for fleet_requests' 1,000 series, as a day of the fleet would leave them.
    const requestSeries = (
      await db.query("select id from insights.impact_series where metric = 'unleash_counter_fleet_requests'")
    ).rows.map((row: { id: string }) => Number(row.id));
    await db.query(
      `
      insert into insights.impact_points (series_id, resolution, at, value)
      select id, 900, date_trunc('hour', now()) - make_interval(mins => 15 * q), 10 + q % 7
      from unnest($1::int8[]) as id, generate_series(1, 96) as q
      on conflict do nothing`,
      [requestSeries],
    );
    const timings: number[] = [];
    for (let index = 0; index < options.queries; index += 1) {
      const at = performance.now();
      const answer = await query(options.admin, 'unleash_counter_fleet_requests', 'day');
      timings.push(performance.now() - at);
      if (answer.status !== 200) throw new Error(`day query: ${answer.status} ${answer.text}`);
    }
    const day = summarize(timings);
    // The experiment's results: insights sums fleet_errors per variant label and hour, admin-api runs the tests.
    const reads: number[] = [];
    let exposures = 0;
    for (let index = 0; index < 50; index += 1) {
      const at = performance.now();
      const answer = await options.admin.get(
        `/api/admin/projects/default/features/scale-1/experiments/${options.experiment}`,
      );
      reads.push(performance.now() - at);
      if (answer.status !== 200) throw new Error(`experiment results: ${answer.status} ${answer.text}`);
      exposures = (answer.body.metrics[0].arms as { exposures: number }[]).reduce((sum, arm) => sum + arm.exposures, 0);
    }
    const results = summarize(reads);
    const labelled = Number(
      (
        await db.query(
          "select count(*)::int as count from insights.impact_series where metric = 'unleash_counter_fleet_errors'",
        )
      ).rows[0].count,
    );
    return {
      instances: options.apps * options.instancesPerApp,
      posts,
      'posts/s': round(posts / options.seconds),
      refused,
      'post p50 ms': round(latency.p50),
      'post p99 ms': round(latency.p99),
      'marker lag p50 ms': round(lag.p50),
      'marker lag p99 ms': round(lag.p99),
      'lag goal (p99 <5 s)': lag.p99 < 5000 ? 'met' : 'not met',
      series,
      'minute rows': minutes.rows,
      'bound (series x minutes)': series * minutes.periods,
      'quarter rows': rows.get(900)?.rows ?? 0,
      'hour rows': rows.get(3600)?.rows ?? 0,
      'day query series': requestSeries.length,
      'day query p50 ms': round(day.p50),
      'day query p99 ms': round(day.p99),
      'query goal (p99 <100 ms)': day.p99 < 100 ? 'met' : 'not met',
      'labelled series (fleet_errors)': labelled,
      'experiment exposures': exposures,
      'experiment results p50 ms': round(results.p50),
      'experiment results p99 ms': round(results.p99),
    };
  } finally {
    await db.end();
  }
}
