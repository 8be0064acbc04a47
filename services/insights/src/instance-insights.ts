import { InstanceInsights } from '@bunting/contracts';
import { ValidationError, sql, type Queryable } from '@bunting/platform';

export type DayRange = { from: string; to: string };

const DAY_MS = 86_400_000;
/** Without a range, the dashboard shows the last twelve weeks. */
const DEFAULT_DAYS = 84;
const MAX_DAYS = 3 * 366;

/** The days asked for (both included), checked: `from` not after `to`, and not more than three years. */
export function dayRange(query: { from?: string | undefined; to?: string | undefined }, today: Date): DayRange {
  const to = query.to ?? today.toISOString().slice(0, 10);
  const from = query.from ?? new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  if (span < 0) throw ValidationError.field('from', 'must not be after to');
  if (span > MAX_DAYS) throw ValidationError.field('from', `must be at most ${MAX_DAYS} days before to`);
  return { from, to };
}

type DayExpression = ReturnType<typeof sql.fragment> | ReturnType<typeof sql.identifier>;

/** Trend dates are the very end of their day, in UTC. */
const endOfDay = (day: DayExpression) => sql.fragment`to_char(${day}, 'YYYY-MM-DD"T"23:59:59.999"Z"')`;
/** ISO year and week number, e.g. 2026-47. */
const weekOf = (day: DayExpression) => sql.fragment`to_char(${day}, 'IYYY-IW')`;

// Each trend row is read in the shape the contract gives it.
const { userTrends, flagTrends, projectFlagTrends, metricsSummaryTrends, environmentTypeTrends } = InstanceInsights.shape;
const UserTrend = userTrends.element;
const FlagTrend = flagTrends.element;
const ProjectFlagTrend = projectFlagTrends.element;
const MetricsSummaryTrend = metricsSummaryTrends.element;
const EnvironmentTypeTrend = environmentTypeTrends.element;

export async function instanceInsights(db: Queryable, range: DayRange): Promise<InstanceInsights> {
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
