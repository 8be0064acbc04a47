import { readInteger, sql, type Env, type Queryable } from '@bunting/platform';
import { z } from 'zod';

/** How long insights keeps what SDKs report. */
export type RetentionPolicy = {
  /** Metrics stay per hour this long, then are summed per UTC day. */
  hourlyHours: number;
  /** Metrics older than this are dropped. */
  metricsDays: number;
  /** A client instance not seen for this long is dropped. */
  instancesDays: number;
};

export function readRetentionPolicy(env: Env = process.env): RetentionPolicy {
  const policy = {
    hourlyHours: 48,
    metricsDays: readInteger(env.METRICS_RETENTION_DAYS, 90, 'METRICS_RETENTION_DAYS'),
    instancesDays: readInteger(env.CLIENT_INSTANCE_RETENTION_DAYS, 30, 'CLIENT_INSTANCE_RETENTION_DAYS'),
  };
  if (policy.metricsDays < 3) throw new Error('METRICS_RETENTION_DAYS must be at least 3 (metrics are kept per hour for two days)');
  if (policy.instancesDays < 1) throw new Error('CLIENT_INSTANCE_RETENTION_DAYS must be at least 1');
  return policy;
}

const Count = z.object({ count: z.number() });

/**
 * Bounds what the metrics tables hold: hours older than the policy's hourly window are summed into the row of their
 * UTC day (kept in the same tables, at the day's midnight, so every reader's sums stay right), days past the kept
 * period are dropped, and so are client instances not seen for a while. Each step is one statement: replicas may
 * run it at once, and a row moved by one is no longer there for the other.
 */
export async function applyRetention(db: Queryable, policy: RetentionPolicy, now = new Date()) {
  const hourlyUntil = new Date(now.getTime() - policy.hourlyHours * 3_600_000).toISOString();
  const keptFrom = new Date(now.getTime() - policy.metricsDays * 86_400_000).toISOString();
  const instancesFrom = new Date(now.getTime() - policy.instancesDays * 86_400_000).toISOString();
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

  const dropped = (await db.query(sql.unsafe`delete from insights.metric_hours where hour < ${keptFrom}::timestamptz`)).rowCount;
  await db.query(sql.unsafe`delete from insights.metric_variant_hours where hour < ${keptFrom}::timestamptz`);
  const instancesDropped = (await db.query(sql.unsafe`delete from insights.application_instances where last_seen < ${instancesFrom}::timestamptz`)).rowCount;
  return { rolledUp, dropped, instancesDropped };
}
