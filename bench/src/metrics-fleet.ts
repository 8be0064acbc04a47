import pg from 'pg';
import { httpClient } from '@bunting/test-stack';
import { round, summarize } from './stats.ts';

type FleetOptions = {
  url: string;
  clientToken: string;
  databaseUrl: string;
  /** Flags the SDKs report on (existing ones, in the token's environment). */
  flags: string[];
  apps: number;
  instancesPerApp: number;
  intervalSeconds: number;
  seconds: number;
};

const sumOf = async (db: pg.Client, flags: string[]) =>
  Number(
    (
      await db.query(
        'select coalesce(sum(yes + no), 0)::text as total from insights.metric_hours where feature_name = any($1)',
        [flags],
      )
    ).rows[0].total,
  );

/**
 * A fleet of SDK instances posting /api/client/metrics every `intervalSeconds` (spread over the interval, as real
 * instances start at different times) and one Unleash Edge posting bulk metrics for ten other applications at the
 * same pace, for `seconds`. Reports what was accepted and how fast, whether insights' sums equal what was sent, how
 * long a marker post takes to show in insights while the fleet posts, and the rows insights holds afterwards.
 */
export async function measureMetricsFleet(options: FleetOptions) {
  const client = httpClient(options.url, { authorization: options.clientToken });
  const db = new pg.Client({ connectionString: options.databaseUrl });
  await db.connect();
  const markerFlag = options.flags[0]!;
  const flags = options.flags.slice(1);
  let sent = 0;
  let posts = 0;
  let refused = 0;
  const latencies: number[] = [];
  const lags: number[] = [];
  const started = Date.now();
  const ends = started + options.seconds * 1000;

  const post = async (path: string, body: unknown, counted: number) => {
    const at = performance.now();
    const reply = await client.post(path, body);
    latencies.push(performance.now() - at);
    posts += 1;
    if (reply.status >= 300) refused += 1;
    else sent += counted;
  };

  const instance = async (app: number, copy: number) => {
    const instances = options.apps * options.instancesPerApp;
    const index = app * options.instancesPerApp + copy;
    await new Promise((resolve) => setTimeout(resolve, (index / instances) * options.intervalSeconds * 1000));
    while (Date.now() < ends) {
      const toggles = Object.fromEntries(
        flags.map((flag, offset) => [flag, { yes: (index + offset) % 7, no: (index + offset) % 3 }]),
      );
      const counted = Object.values(toggles).reduce((sum, counts) => sum + counts.yes + counts.no, 0);
      const now = new Date().toISOString();
      await post(
        '/api/client/metrics',
        { appName: `fleet-app-${app}`, instanceId: `instance-${index}`, bucket: { start: now, stop: now, toggles } },
        counted,
      );
      await new Promise((resolve) => setTimeout(resolve, options.intervalSeconds * 1000));
    }
  };

  const edge = async () => {
    while (Date.now() < ends) {
      const timestamp = new Date().toISOString();
      const metrics = Array.from({ length: 10 }, (_, app) =>
        flags.map((featureName) => ({ featureName, appName: `edge-app-${app}`, timestamp, yes: 3, no: 1 })),
      ).flat();
      await post(
        '/api/client/metrics/bulk',
        {
          applications: Array.from({ length: 10 }, (_, app) => ({
            appName: `edge-app-${app}`,
            instanceId: `edge-${app}`,
          })),
          metrics,
        },
        metrics.length * 4,
      );
      await new Promise((resolve) => setTimeout(resolve, options.intervalSeconds * 1000));
    }
  };

  // Every five seconds one yes for the marker flag, timed until insights' sum shows it.
  const marker = async () => {
    while (Date.now() < ends - 5000) {
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const before = await sumOf(db, [markerFlag]);
      const at = performance.now();
      const now = new Date().toISOString();
      await client.post('/api/client/metrics', {
        appName: 'fleet-marker',
        bucket: { start: now, stop: now, toggles: { [markerFlag]: { yes: 1, no: 0 } } },
      });
      while ((await sumOf(db, [markerFlag])) === before && performance.now() - at < 30_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      lags.push(performance.now() - at);
    }
  };

  try {
    const instances = Array.from({ length: options.apps }, (_, app) =>
      Array.from({ length: options.instancesPerApp }, (_, copy) => instance(app, copy)),
    ).flat();
    await Promise.all([...instances, edge(), marker()]);
    const posted = performance.now();
    while ((await sumOf(db, flags)) < sent && performance.now() - posted < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const drained = performance.now() - posted;
    const stored = await sumOf(db, flags);
    const count = async (table: string) =>
      Number((await db.query(`select count(*)::int as count from insights.${table}`)).rows[0].count);
    const hours = Number(
      (
        await db.query(
          'select count(distinct hour)::int as hours from insights.metric_hours where feature_name = any($1)',
          [flags],
        )
      ).rows[0].hours,
    );
    const latency = summarize(latencies);
    const lag = summarize(lags);
    const appsReporting = options.apps + 10;
    return {
      posts,
      'posts/s': round(posts / options.seconds),
      refused,
      'p50 ms': round(latency.p50),
      'p99 ms': round(latency.p99),
      'counts sent': sent,
      'counts in insights': stored,
      'none lost': stored === sent ? 'yes' : `no (${sent - stored} missing)`,
      'drained after last post s': round(drained / 1000, 1),
      'marker lag p50 ms': round(lag.p50),
      'marker lag p99 ms': round(lag.p99),
      'lag goal (p99 <5 s)': lag.p99 < 5000 ? 'met' : 'not met',
      'metric_hours rows': await count('metric_hours'),
      // The marker's one flag and app add a row an hour too (the run may cross an hour).
      'bound (flags x apps x env x hours)': (flags.length * appsReporting + 1) * hours,
      'processed_metrics rows': await count('processed_metrics'),
      'client instances': await count('application_instances'),
    };
  } finally {
    await db.end();
  }
}
