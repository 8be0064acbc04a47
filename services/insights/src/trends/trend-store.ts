import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { InstanceInsights, type Inventory } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { timeToProduction } from '../facts/fact-store.ts';
import type { DayRange } from './instance-insights.ts';

type DayExpression = ReturnType<typeof sql.fragment> | ReturnType<typeof sql.identifier>;

/** Trend dates are the very end of their day, in UTC. */
const endOfDay = (day: DayExpression) => sql.fragment`to_char(${day}, 'YYYY-MM-DD"T"23:59:59.999"Z"')`;
/** ISO year and week number, e.g. 2026-47. */
const weekOf = (day: DayExpression) => sql.fragment`to_char(${day}, 'IYYY-IW')`;

// Each trend row is read in the shape the contract gives it.
const { userTrends, flagTrends, projectFlagTrends, metricsSummaryTrends, environmentTypeTrends } =
  InstanceInsights.shape;
const UserTrend = userTrends.element;
const FlagTrend = flagTrends.element;
const ProjectFlagTrend = projectFlagTrends.element;
const MetricsSummaryTrend = metricsSummaryTrends.element;
const EnvironmentTypeTrend = environmentTypeTrends.element;

async function instanceInsights(db: Queryable, range: DayRange): Promise<InstanceInsights> {
  const days = sql.fragment`day between ${range.from}::date and ${range.to}::date`;
  // Hours and event times are compared by their UTC day.
  const utcDay = (column: DayExpression) => sql.fragment`(${column} at time zone 'utc')::date`;
  const hourDay = utcDay(sql.identifier(['hour']));
  const eventDay = utcDay(sql.identifier(['e', 'created_at']));
  const [userTrends, flagTrends, projectFlagTrends, metricsSummaryTrends, environmentTypeTrends] = await Promise.all([
    db.any(sql.type(UserTrend)`
      select ${endOfDay(sql.identifier(['day']))} as date, total, active, inactive
      from insights.user_trends where ${days} order by day`),
    db.any(sql.type(FlagTrend)`
      select ${endOfDay(sql.identifier(['day']))} as date, total, active, stale, potentially_stale as "potentiallyStale"
      from insights.flag_trends where ${days} order by day`),
    // One point per project and week: the week's latest snapshot.
    db.any(sql.type(ProjectFlagTrend)`
      select distinct on (${weekOf(sql.identifier(['day']))}, project)
        ${weekOf(sql.identifier(['day']))} as week, project, health, time_to_production as "timeToProduction",
        ${endOfDay(sql.identifier(['day']))} as date, total, active, stale, potentially_stale as "potentiallyStale", users
      from insights.project_trends where ${days}
      order by ${weekOf(sql.identifier(['day']))}, project, day desc`),
    db.any(sql.type(MetricsSummaryTrend)`
      select ${weekOf(hourDay)} as week, ${endOfDay(sql.fragment`max(${hourDay})`)} as date, p.project,
        sum(m.yes + m.no)::float8 as "totalRequests", sum(m.yes)::float8 as "totalYes", sum(m.no)::float8 as "totalNo",
        count(distinct m.app_name)::int as "totalApps", count(distinct m.feature_name)::int as "totalFlags",
        count(distinct m.environment)::int as "totalEnvironments"
      from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
      where ${hourDay} between ${range.from}::date and ${range.to}::date
      group by 1, p.project order by 1, p.project`),
    db.any(sql.type(EnvironmentTypeTrend)`
      select ${endOfDay(sql.fragment`max(${eventDay})`)} as date, ${weekOf(eventDay)} as week,
        t.type as "environmentType", count(*)::int as "totalUpdates"
      from insights.events e join insights.environment_types t on t.name = e.environment
      where ${eventDay} between ${range.from}::date and ${range.to}::date
      group by 2, t.type order by 2, t.type`),
  ]);
  return {
    userTrends: [...userTrends],
    flagTrends: [...flagTrends],
    projectFlagTrends: [...projectFlagTrends],
    metricsSummaryTrends: [...metricsSummaryTrends],
    environmentTypeTrends: [...environmentTypeTrends],
  };
}

const int = z.number().int();
const Observed = z.object({
  instanceId: z.string(),
  enabledBuckets: int,
  variantBuckets: int,
  production30: int,
  production60: int,
  production90: int,
  appsAllTime: int,
  apps30: int,
  apps7: int,
  featureExports: int,
  featureImports: int,
});

function productionChanges(days: number) {
  return sql.fragment`(select count(*) from insights.events e
    join insights.environment_types t on t.name = e.environment and t.type = 'production'
    where e.created_at >= now() - make_interval(days => ${days}))::int`;
}

function appsSeen(days: number | null) {
  const since =
    days === null ? sql.fragment`` : sql.fragment`where last_seen >= now() - make_interval(days => ${days})`;
  return sql.fragment`(select count(*) from insights.applications ${since})::int`;
}

/** The daily trends (users, flags, projects) and the installation's id: the only writer of those tables. */
export const trendStore = {
  /** Today's rows from the inventory, replacing an earlier snapshot of the same day. */
  async recordDay(tx: Queryable, inventory: Inventory) {
    const day = inventory.takenAt.slice(0, 10);
    const { users, flags, projects } = inventory;
    const active = users.seenWithin.last30;
    await tx.query(sql.unsafe`
      insert into insights.user_trends (day, total, active, inactive) values (${day}, ${users.total}, ${active}, ${users.total - active})
      on conflict (day) do update set total = excluded.total, active = excluded.active, inactive = excluded.inactive`);
    await tx.query(sql.unsafe`
      insert into insights.flag_trends (day, total, active, stale, potentially_stale)
      values (${day}, ${flags.total}, ${flags.active}, ${flags.stale}, ${flags.potentiallyStale})
      on conflict (day) do update set total = excluded.total, active = excluded.active, stale = excluded.stale,
        potentially_stale = excluded.potentially_stale`);
    await tx.query(sql.unsafe`delete from insights.project_trends where day = ${day}`);
    if (projects.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.project_trends (day, project, health, time_to_production, total, active, stale, potentially_stale, users)
      select ${day}::date, c.project, c.health, ${timeToProduction(null)}, c.total, c.active, c.stale, c.potentially_stale, c.users
      from unnest(${sql.array(
        projects.map((p) => p.id),
        'text',
      )}::text[],
        ${sql.array(
          projects.map((p) => p.health),
          'int4',
        )}::int4[],
        ${sql.array(
          projects.map((p) => p.total),
          'int4',
        )}::int4[],
        ${sql.array(
          projects.map((p) => p.active),
          'int4',
        )}::int4[],
        ${sql.array(
          projects.map((p) => p.stale),
          'int4',
        )}::int4[],
        ${sql.array(
          projects.map((p) => p.potentiallyStale),
          'int4',
        )}::int4[],
        ${sql.array(
          projects.map((p) => p.users),
          'int4',
        )}::int4[])
        as c(project, health, total, active, stale, potentially_stale, users)`);
  },

  instanceInsights,

  /** What the instance statistics count from insights' own rows; the installation's id is made on first use and kept. */
  async observed(db: Queryable) {
    await db.query(
      sql.unsafe`insert into insights.instance (instance_id) values (${randomUUID()}) on conflict do nothing`,
    );
    // "The previous day" is yesterday in UTC, whole hours from midnight to midnight.
    return db.one(sql.type(Observed)`
      select (select instance_id::text from insights.instance) as "instanceId",
        (select count(*) from insights.metric_hours
          where hour >= date_trunc('day', now() at time zone 'utc') at time zone 'utc' - interval '1 day'
            and hour < date_trunc('day', now() at time zone 'utc') at time zone 'utc')::int as "enabledBuckets",
        (select count(*) from insights.metric_variant_hours
          where hour >= date_trunc('day', now() at time zone 'utc') at time zone 'utc' - interval '1 day'
            and hour < date_trunc('day', now() at time zone 'utc') at time zone 'utc')::int as "variantBuckets",
        ${productionChanges(30)} as production30, ${productionChanges(60)} as production60, ${productionChanges(90)} as production90,
        ${appsSeen(null)} as "appsAllTime", ${appsSeen(30)} as apps30, ${appsSeen(7)} as apps7,
        (select count(*) from insights.events where type = 'features-exported')::int as "featureExports",
        (select count(*) from insights.events where type = 'features-imported')::int as "featureImports"`);
  },
};
