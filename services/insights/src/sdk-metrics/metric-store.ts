import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

/** Names reported that no flag has are kept up to these bounds: per application, and in all. */
export const UNKNOWN_FLAGS_PER_APP = 1000;
export const UNKNOWN_FLAGS_IN_ALL = 10_000;

export type MetricRow = {
  hour: string;
  app: string;
  environment: string;
  feature: string;
  yes: number;
  no: number;
  variants: [string, number][];
};

const Count = z.object({ count: z.number() });
const FeatureMetricRow = z.object({
  featureName: z.string(),
  appName: z.string(),
  environment: z.string(),
  timestamp: z.string(),
  yes: z.number(),
  no: z.number(),
  variants: z.record(z.string(), z.number()),
});
const Exposures = z.object({ yes: z.number(), no: z.number() });
const VariantExposure = z.object({ at: z.string(), variant: z.string(), count: z.number() });
const Seen = z.object({ name: z.string(), appName: z.string(), environment: z.string(), seenAt: z.string() });
const column = <K extends keyof MetricRow>(rows: readonly MetricRow[], key: K) => rows.map((row) => row[key]);

/** SDK metrics summed per hour, the stream sequences already recorded, and the names of flags no project has. */
export const metricStore = {
  /** Marks the sequences recorded; returns those that were not already (a redelivered message's is). */
  async markProcessed(tx: Queryable, sequences: readonly number[]): Promise<Set<number>> {
    return new Set(
      await tx.anyFirst(sql.type(z.object({ sequence: z.number() }))`
      insert into insights.processed_metrics (stream_sequence)
      select unnest(${sql.array([...sequences], 'int8')}::int8[])
      on conflict do nothing returning stream_sequence::int8 as sequence`),
    );
  },

  /** Forgets the sequences at or below the consumer's ack floor, and any older than the stream keeps messages. */
  async pruneProcessed(db: Queryable, ackFloor: number): Promise<number> {
    return (
      await db.query(
        sql.unsafe`delete from insights.processed_metrics where stream_sequence <= ${ackFloor} or processed_at < now() - interval '2 days'`,
      )
    ).rowCount;
  },

  /** The projects of those of these flags insights has heard of (from events and admin-api's inventory). */
  async projectsOf(tx: Queryable, names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = await tx.any(sql.type(z.object({ name: z.string(), project: z.string() }))`
      select feature_name as name, project from insights.feature_projects
      where feature_name = any(${sql.array([...names], 'text')})`);
    return new Map(rows.map((row) => [row.name, row.project]));
  },

  /** Serialises admitting unknown names, so two runs cannot both take the last place. */
  async lockUnknownFlags(tx: Queryable) {
    await tx.query(sql.unsafe`select pg_advisory_xact_lock(hashtext('insights.unknown_flags'))`);
  },

  /** Admits an unknown name for an application while within the bounds; true when it is (now or already) admitted. */
  async admitUnknownFlag(tx: Queryable, app: string, feature: string): Promise<boolean> {
    const inserted = await tx.query(sql.unsafe`
      insert into insights.unknown_flags (app_name, feature_name)
      select ${app}, ${feature}
      where exists (select 1 from insights.unknown_flags where app_name = ${app} and feature_name = ${feature})
        or ((select count(*) from insights.unknown_flags where app_name = ${app}) < ${UNKNOWN_FLAGS_PER_APP}
          and (select count(*) from insights.unknown_flags) < ${UNKNOWN_FLAGS_IN_ALL})
      on conflict do nothing`);
    return (
      inserted.rowCount > 0 ||
      tx.exists(sql.unsafe`select 1 from insights.unknown_flags where app_name = ${app} and feature_name = ${feature}`)
    );
  },

  /** Adds the rows to the hourly sums: rows for the same key summed first (one insert may not update a row twice), in key order. */
  async addHours(tx: Queryable, rows: readonly MetricRow[]) {
    if (rows.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.metric_hours (hour, app_name, environment, feature_name, yes, no)
      select hour, app, environment, feature, sum(yes), sum(no)
      from unnest(${sql.array(column(rows, 'hour'), 'timestamptz')}::timestamptz[], ${sql.array(column(rows, 'app'), 'text')}::text[],
        ${sql.array(column(rows, 'environment'), 'text')}::text[], ${sql.array(column(rows, 'feature'), 'text')}::text[],
        ${sql.array(column(rows, 'yes'), 'int8')}::int8[], ${sql.array(column(rows, 'no'), 'int8')}::int8[])
        as t(hour, app, environment, feature, yes, no)
      group by hour, app, environment, feature
      order by hour, app, environment, feature
      on conflict (hour, app_name, environment, feature_name)
      do update set yes = insights.metric_hours.yes + excluded.yes, no = insights.metric_hours.no + excluded.no`);
    const variants = rows.flatMap((row) => row.variants.map(([variant, count]) => ({ ...row, variant, count })));
    if (variants.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.metric_variant_hours (hour, app_name, environment, feature_name, variant, count)
      select hour, app, environment, feature, variant, sum(count)
      from unnest(${sql.array(
        variants.map((row) => row.hour),
        'timestamptz',
      )}::timestamptz[],
        ${sql.array(
          variants.map((row) => row.app),
          'text',
        )}::text[], ${sql.array(
          variants.map((row) => row.environment),
          'text',
        )}::text[],
        ${sql.array(
          variants.map((row) => row.feature),
          'text',
        )}::text[], ${sql.array(
          variants.map((row) => row.variant),
          'text',
        )}::text[],
        ${sql.array(
          variants.map((row) => row.count),
          'int8',
        )}::int8[]) as t(hour, app, environment, feature, variant, count)
      group by hour, app, environment, feature, variant
      order by hour, app, environment, feature, variant
      on conflict (hour, app_name, environment, feature_name, variant)
      do update set count = insights.metric_variant_hours.count + excluded.count`);
  },

  /**
   * Hours older than `hourlyUntil` summed into the row of their UTC day (kept in the same tables, at the day's
   * midnight, so every reader's sums stay right), and days before `keptFrom` dropped. Each step is one statement:
   * replicas may run it at once, and a row moved by one is no longer there for the other.
   */
  async rollUp(db: Queryable, hourlyUntil: string, keptFrom: string) {
    const day = sql.fragment`date_trunc('day', hour, 'UTC')`;
    const rolledUp = await db.oneFirst(sql.type(Count)`
      with moved as (
        delete from insights.metric_hours where hour < ${hourlyUntil}::timestamptz and hour <> ${day}
        returning hour, app_name, environment, feature_name, yes, no
      ), summed as (
        insert into insights.metric_hours (hour, app_name, environment, feature_name, yes, no)
        select ${day}, app_name, environment, feature_name, sum(yes), sum(no) from moved
        group by 1, 2, 3, 4
        on conflict (hour, app_name, environment, feature_name)
        do update set yes = insights.metric_hours.yes + excluded.yes, no = insights.metric_hours.no + excluded.no
        returning 1
      )
      select (select count(*) from moved)::int as count`);
    await db.query(sql.unsafe`
      with moved as (
        delete from insights.metric_variant_hours where hour < ${hourlyUntil}::timestamptz and hour <> ${day}
        returning hour, app_name, environment, feature_name, variant, count
      )
      insert into insights.metric_variant_hours (hour, app_name, environment, feature_name, variant, count)
      select ${day}, app_name, environment, feature_name, variant, sum(count) from moved
      group by 1, 2, 3, 4, 5
      on conflict (hour, app_name, environment, feature_name, variant)
      do update set count = insights.metric_variant_hours.count + excluded.count`);
    const dropped = (
      await db.query(sql.unsafe`delete from insights.metric_hours where hour < ${keptFrom}::timestamptz`)
    ).rowCount;
    await db.query(sql.unsafe`delete from insights.metric_variant_hours where hour < ${keptFrom}::timestamptz`);
    return { rolledUp, dropped };
  },

  /** One flag's metrics per hour, environment and application over the last `hours` hours. */
  ofFeature(db: Queryable, name: string, hours: number) {
    return db.any(sql.type(FeatureMetricRow)`
      select m.feature_name as "featureName", m.app_name as "appName", m.environment,
        to_char(m.hour at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as timestamp, m.yes::float8 as yes, m.no::float8 as no,
        coalesce((select json_object_agg(v.variant, v.count) from insights.metric_variant_hours v
          where v.hour = m.hour and v.app_name = m.app_name and v.environment = m.environment and v.feature_name = m.feature_name), '{}') as variants
      from insights.metric_hours m
      where m.feature_name = ${name} and m.hour >= date_trunc('hour', now()) - make_interval(hours => ${hours - 1})
      order by m.hour, m.environment, m.app_name`);
  },

  /** Every flag name reported in the last week, by application and environment, with when it was last seen. */
  seenLastWeek(db: Queryable) {
    return db.any(sql.type(Seen)`
      select feature_name as name, app_name as "appName", environment,
        to_char(max(hour) at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "seenAt"
      from insights.metric_hours where hour >= now() - interval '7 days'
      group by feature_name, app_name, environment order by feature_name, app_name, environment`);
  },

  /**
   * A flag's evaluations in an environment (yes: on, no: off) as SDKs reported them, since the UTC day of `since`:
   * from the day, so hours rolled up into their day's row are still counted.
   */
  exposuresSince(db: Queryable, featureName: string, environment: string, since: string) {
    return db.one(sql.type(Exposures)`
      select coalesce(sum(yes), 0)::float8 as yes, coalesce(sum(no), 0)::float8 as no from insights.metric_hours
      where feature_name = ${featureName} and environment = ${environment}
        and hour >= date_trunc('day', ${since}::timestamptz, 'UTC')`);
  },

  /**
   * A flag's evaluations per variant in an environment from the UTC day of `since`, per hour (hours older than the
   * hourly window are in their day's row, at midnight).
   */
  variantExposures(db: Queryable, featureName: string, environment: string, since: string) {
    return db.any(sql.type(VariantExposure)`
      select to_char(hour at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, variant, sum(count)::float8 as count
      from insights.metric_variant_hours
      where feature_name = ${featureName} and environment = ${environment}
        and hour >= date_trunc('day', ${since}::timestamptz, 'UTC')
      group by hour, variant order by hour, variant`);
  },
};
