import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { ImpactMetricType } from '@bunting/contracts';
import type { ImpactPoint } from './impact-points.ts';

/** The periods points are kept at, in seconds: a minute, a quarter hour, an hour. */
export type ImpactResolution = 60 | 900 | 3600;
export const IMPACT_RESOLUTIONS: readonly ImpactResolution[] = [60, 900, 3600];
export type SeriesRef = { id: number; bounds: number[] | null };

const MetricRow = z.object({ name: z.string(), type: z.enum(['counter', 'gauge', 'histogram']), help: z.string() });
const SeriesRow = z.object({
  id: z.number(),
  metric: z.string(),
  labelKey: z.string(),
  bounds: z.array(z.number()).nullable(),
});
const LabelledSeries = z.object({
  id: z.number(),
  labels: z.record(z.string(), z.string()),
  bounds: z.array(z.number()).nullable(),
});
const StepValue = z.object({ step: z.number(), value: z.number(), series: z.number() });
const GaugeStep = z.object({ step: z.number(), mean: z.number(), total: z.number(), series: z.number() });
const HistogramStep = z.object({ step: z.number(), count: z.number(), sum: z.number(), buckets: z.array(z.number()) });
const ExposedRow = z.object({
  metric: z.string(),
  type: z.enum(['counter', 'gauge', 'histogram']),
  help: z.string(),
  labels: z.record(z.string(), z.string()),
  bounds: z.array(z.number()).nullable(),
  total: z.number(),
  totalSum: z.number().nullable(),
  totalBuckets: z.array(z.number()).nullable(),
});

/** A float8[] literal: Postgres spells an unbounded bound Infinity. */
const floats = (values: readonly number[] | null) =>
  values === null ? null : `{${values.map((value) => (value === Infinity ? 'Infinity' : String(value))).join(',')}}`;

/** Impact metrics: the catalogue, the series, their points per minute and hour, and the settings of the feature. */
export const impactStore = {
  /**
   * Adds the metrics not yet known while fewer than `maxMetrics` are, and marks all as seen; answers which of them
   * are known now (a metric over the limit is not).
   */
  /**
   * Keeps the catalogue entry of each metric some series of this run belongs to (its help and when it was last seen);
   * how many metrics there may be is bounded per environment, when series are made.
   */
  async keepMetrics(
    tx: Queryable,
    metrics: readonly { name: string; type: ImpactMetricType; help: string }[],
    seenAt: string,
  ): Promise<void> {
    if (metrics.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.impact_metrics (name, type, help, last_seen)
      select t.name, t.type, t.help, ${seenAt}
      from unnest(${sql.array(
        metrics.map((metric) => metric.name),
        'text',
      )}::text[], ${sql.array(
        metrics.map((metric) => metric.type),
        'text',
      )}::text[],
        ${sql.array(
          metrics.map((metric) => metric.help),
          'text',
        )}::text[]) as t(name, type, help)
      order by t.name
      on conflict (name) do update set last_seen = excluded.last_seen,
        help = case when excluded.help = '' then insights.impact_metrics.help else excluded.help end`);
  },

  /** Registers a metric before any SDK sends it; true when it is new. */
  async register(tx: Queryable, metric: { name: string; type: ImpactMetricType; help: string }): Promise<boolean> {
    return tx.oneFirst(sql.type(z.object({ created: z.boolean() }))`
      insert into insights.impact_metrics (name, type, help, registered) values (${metric.name}, ${metric.type}, ${metric.help}, true)
      on conflict (name) do update set registered = true, help = case when excluded.help = '' then insights.impact_metrics.help else excluded.help end
      returning (xmax = 0) as created`);
  },

  catalogue(db: Queryable) {
    return db.any(sql.type(MetricRow)`select name, type, help from insights.impact_metrics order by name`);
  },

  metric(db: Queryable, name: string) {
    return db.maybeOne(sql.type(MetricRow)`select name, type, help from insights.impact_metrics where name = ${name}`);
  },

  /** The series already kept for these (metric, labels) pairs. */
  async seriesOf(tx: Queryable, keys: readonly { metric: string; labelKey: string }[]) {
    if (keys.length === 0) return [];
    return tx.any(sql.type(SeriesRow)`
      select s.id::int8 as id, s.metric, s.label_key as "labelKey", s.bounds
      from insights.impact_series s
      join unnest(${sql.array(
        keys.map((key) => key.metric),
        'text',
      )}::text[], ${sql.array(
        keys.map((key) => key.labelKey),
        'text',
      )}::text[]) as t(metric, label_key)
        on s.metric = t.metric and s.label_key = t.label_key`);
  },

  /** Serialises making series, so two replicas' runs cannot both take a metric's last places. */
  async lockSeries(tx: Queryable) {
    await tx.query(sql.unsafe`select pg_advisory_xact_lock(hashtext('insights.impact_series'))`);
  },

  /**
   * What an environment already holds, for the limits on making series there: its metrics, its series in all, and
   * each (metric, application)'s series.
   */
  async environmentUsage(tx: Queryable, environments: readonly string[]) {
    const rows = await tx.any(sql.type(
      z.object({ environment: z.string(), metric: z.string(), app: z.string(), count: z.number() }),
    )`
      select environment, metric, app, count(*)::int4 as count from insights.impact_series
      where environment = any(${sql.array([...environments], 'text')}) group by environment, metric, app`);
    return rows;
  },

  async createSeries(
    tx: Queryable,
    rows: readonly {
      metric: string;
      labelKey: string;
      labels: Record<string, string>;
      bounds: number[] | null;
      environment: string;
      app: string;
    }[],
    seenAt: string,
  ) {
    if (rows.length === 0) return [];
    return tx.any(sql.type(SeriesRow)`
      insert into insights.impact_series (metric, label_key, labels, bounds, environment, app, total, total_sum, total_buckets, last_seen)
      select t.metric, t.label_key, t.labels::jsonb, t.bounds::float8[], t.environment, t.app, 0,
        case when t.bounds is null then null else 0 end,
        case when t.bounds is null then null else array_fill(0::float8, array[cardinality(t.bounds::float8[])]) end, ${seenAt}
      from unnest(${sql.array(
        rows.map((row) => row.metric),
        'text',
      )}::text[], ${sql.array(
        rows.map((row) => row.labelKey),
        'text',
      )}::text[],
        ${sql.array(
          rows.map((row) => JSON.stringify(row.labels)),
          'text',
        )}::text[], ${sql.array(
          rows.map((row) => floats(row.bounds)),
          'text',
        )}::text[],
        ${sql.array(
          rows.map((row) => row.environment),
          'text',
        )}::text[], ${sql.array(
          rows.map((row) => row.app),
          'text',
        )}::text[])
        as t(metric, label_key, labels, bounds, environment, app)
      on conflict (metric, label_key) do nothing
      returning id::int8 as id, metric, label_key as "labelKey", bounds`);
  },

  /**
   * Adds the points at one resolution, one row per series and period however many posts fed it: increases and
   * observations added, a gauge's value replaced. In (series, period) order, so concurrent runs lock rows alike.
   */
  async addPoints(
    tx: Queryable,
    resolution: ImpactResolution,
    rows: readonly { seriesId: number; at: string; point: ImpactPoint }[],
  ) {
    const sorted = [...rows].sort((a, b) => a.seriesId - b.seriesId || a.at.localeCompare(b.at));
    const gauges = sorted.filter((row) => row.point.type === 'gauge');
    const added = sorted.filter((row) => row.point.type !== 'gauge');
    const values = (part: typeof sorted) => sql.fragment`
      select t.series_id, ${resolution}::int4, t.at, t.value, t.sum, t.buckets::float8[]
      from unnest(${sql.array(
        part.map((row) => row.seriesId),
        'int8',
      )}::int8[], ${sql.array(
        part.map((row) => row.at),
        'timestamptz',
      )}::timestamptz[],
        ${sql.array(
          part.map((row) => row.point.value),
          'float8',
        )}::float8[], ${sql.array(
          part.map((row) => row.point.sum),
          'float8',
        )}::float8[],
        ${sql.array(
          part.map((row) => floats(row.point.buckets)),
          'text',
        )}::text[]) as t(series_id, at, value, sum, buckets)`;
    if (gauges.length > 0) {
      await tx.query(sql.unsafe`
        insert into insights.impact_points (series_id, resolution, at, value, sum, buckets) ${values(gauges)}
        on conflict (series_id, resolution, at) do update set value = excluded.value`);
    }
    if (added.length > 0) {
      await tx.query(sql.unsafe`
        insert into insights.impact_points as r (series_id, resolution, at, value, sum, buckets) ${values(added)}
        on conflict (series_id, resolution, at) do update set
          value = r.value + excluded.value,
          sum = r.sum + excluded.sum,
          buckets = (select array_agg(a + b order by i) from unnest(r.buckets, excluded.buckets) with ordinality as u(a, b, i))`);
    }
  },

  /** What the Prometheus exposition sends: counters' and histograms' totals grow, a gauge's is its last value. */
  async addToTotals(tx: Queryable, rows: readonly { seriesId: number; point: ImpactPoint }[], seenAt: string) {
    if (rows.length === 0) return;
    const sorted = [...rows].sort((a, b) => a.seriesId - b.seriesId);
    await tx.query(sql.unsafe`
      update insights.impact_series s set
        total = case when t.gauge then t.value else s.total + t.value end,
        total_sum = s.total_sum + t.sum,
        total_buckets = case when t.buckets is null then s.total_buckets
          else (select array_agg(a + b order by i) from unnest(s.total_buckets, t.buckets::float8[]) with ordinality as u(a, b, i)) end,
        last_seen = ${seenAt}
      from unnest(${sql.array(
        sorted.map((row) => row.seriesId),
        'int8',
      )}::int8[], ${sql.array(
        sorted.map((row) => row.point.value),
        'float8',
      )}::float8[],
        ${sql.array(
          sorted.map((row) => row.point.sum),
          'float8',
        )}::float8[], ${sql.array(
          sorted.map((row) => floats(row.point.buckets)),
          'text',
        )}::text[],
        ${sql.array(
          sorted.map((row) => row.point.type === 'gauge'),
          'bool',
        )}::bool[]) as t(id, value, sum, buckets, gauge)
      where s.id = t.id`);
  },

  /** A metric's series, with their labels. */
  seriesOfMetric(db: Queryable, metric: string) {
    return db.any(
      sql.type(
        LabelledSeries,
      )`select id::int8 as id, labels, bounds from insights.impact_series where metric = ${metric} order by id`,
    );
  },

  /** Counters: the increase of these series per step (`step` its start, epoch ms), summed over them. */
  counterSteps(db: Queryable, from: ImpactResolution, seriesIds: readonly number[], since: string, stepMs: number) {
    return db.any(sql.type(StepValue)`
      select (floor(extract(epoch from at) * 1000 / ${stepMs}) * ${stepMs})::int8 as step, sum(value) as value, count(distinct series_id)::int4 as series
      from insights.impact_points
      where series_id = any(${sql.array([...seriesIds], 'int8')}) and resolution = ${from} and at >= ${since}
      group by 1 order by 1`);
  },

  /** Gauges: each series' latest value in each step, then their mean and sum over the series. */
  gaugeSteps(db: Queryable, from: ImpactResolution, seriesIds: readonly number[], since: string, stepMs: number) {
    return db.any(sql.type(GaugeStep)`
      select step, avg(value) as mean, sum(value) as total, count(*)::int4 as series
      from (
        select distinct on (series_id, step) series_id, (floor(extract(epoch from at) * 1000 / ${stepMs}) * ${stepMs})::int8 as step, value
        from insights.impact_points
        where series_id = any(${sql.array([...seriesIds], 'int8')}) and resolution = ${from} and at >= ${since}
        order by series_id, step, at desc
      ) latest
      group by step order by step`);
  },

  /** Histograms: observations, their sum and the cumulative count per bound in each step, added over the series. */
  histogramSteps(db: Queryable, from: ImpactResolution, seriesIds: readonly number[], since: string, stepMs: number) {
    return db.any(sql.type(HistogramStep)`
      with rows as (
        select (floor(extract(epoch from at) * 1000 / ${stepMs}) * ${stepMs})::int8 as step, value, sum, buckets
        from insights.impact_points
        where series_id = any(${sql.array([...seriesIds], 'int8')}) and resolution = ${from} and at >= ${since}
      ), totals as (
        select step, sum(value) as count, sum(sum) as sum from rows group by step
      ), bounds as (
        select step, array_agg(total order by position) as buckets
        from (select step, position, sum(x) as total from rows, unnest(buckets) with ordinality as u(x, position) group by step, position) per_bound
        group by step
      )
      select totals.step, totals.count, totals.sum, bounds.buckets from totals join bounds using (step) order by totals.step`);
  },

  /** Every series with its totals, for the Prometheus exposition. */
  exposed(db: Queryable) {
    return db.any(sql.type(ExposedRow)`
      select s.metric, m.type, m.help, s.labels, s.bounds, s.total, s.total_sum as "totalSum", s.total_buckets as "totalBuckets"
      from insights.impact_series s join insights.impact_metrics m on m.name = s.metric
      order by s.metric, s.last_seen, s.id`);
  },

  registeredWithoutSeries(db: Queryable) {
    return db.any(sql.type(MetricRow)`
      select m.name, m.type, m.help from insights.impact_metrics m
      where m.registered and not exists (select 1 from insights.impact_series s where s.metric = m.name) order by m.name`);
  },

  /** Drops minutes and quarters past their windows, hours and series past the kept period, and metrics left without series. */
  async prune(db: Queryable, minutesFrom: string, quartersFrom: string, keptFrom: string) {
    const points = await db.query(sql.unsafe`
      delete from insights.impact_points
      where (resolution = 60 and at < ${minutesFrom}) or (resolution = 900 and at < ${quartersFrom}) or (resolution = 3600 and at < ${keptFrom})`);
    const series = await db.query(sql.unsafe`delete from insights.impact_series where last_seen < ${keptFrom}`);
    const metrics = await db.query(sql.unsafe`
      delete from insights.impact_metrics m where not m.registered and coalesce(m.last_seen, m.created_at) < ${keptFrom}
        and not exists (select 1 from insights.impact_series s where s.metric = m.name)`);
    return { points: points.rowCount, series: series.rowCount, metrics: metrics.rowCount };
  },

  async setting(db: Queryable, key: string): Promise<unknown> {
    return (
      await db.maybeOne(
        sql.type(z.object({ value: z.unknown() }))`select value from insights.impact_settings where key = ${key}`,
      )
    )?.value;
  },

  async saveSetting(tx: Queryable, key: string, value: unknown) {
    await tx.query(sql.unsafe`
      insert into insights.impact_settings (key, value) values (${key}, ${sql.jsonb(value as never)})
      on conflict (key) do update set value = excluded.value`);
  },
};
