import { z } from 'zod';
import { ProjectStats } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

/** The health report's windows: the last 30 days, and the 30 before them. */
const WINDOW_DAYS = 30;

/**
 * Average days from a flag's creation to its first enabling in a production-type environment, over the flags
 * created in the current window that got there. 0 when none did.
 */
export function timeToProduction(projectId: string | null) {
  const project = projectId === null ? sql.fragment`c.project` : sql.fragment`${projectId}`;
  return sql.fragment`coalesce((
    select round(avg(extract(epoch from first_enabled.at - c.created_at) / 86400)::numeric, 2)::float8
    from insights.events c
    join lateral (
      select min(e.created_at) as at from insights.events e
      join insights.environment_types t on t.name = e.environment and t.type = 'production'
      where e.feature_name = c.feature_name and e.type = 'feature-environment-enabled' and e.created_at >= c.created_at
    ) first_enabled on first_enabled.at is not null
    where c.type = 'feature-created' and c.project = ${project}
      and c.created_at >= now() - make_interval(days => ${WINDOW_DAYS})), 0)`;
}

export function projectWindows(db: Queryable, projectId: string): Promise<ProjectStats> {
  const current = sql.fragment`created_at >= now() - make_interval(days => ${WINDOW_DAYS})`;
  const past = sql.fragment`created_at >= now() - make_interval(days => ${WINDOW_DAYS * 2})
    and created_at < now() - make_interval(days => ${WINDOW_DAYS})`;
  return db.one(sql.type(ProjectStats)`
    select ${timeToProduction(projectId)} as "avgTimeToProdCurrentWindow",
      count(*) filter (where type = 'feature-created' and ${current})::int as "createdCurrentWindow",
      count(*) filter (where type = 'feature-created' and ${past})::int as "createdPastWindow",
      count(*) filter (where type = 'feature-archived' and ${current})::int as "archivedCurrentWindow",
      count(*) filter (where type = 'feature-archived' and ${past})::int as "archivedPastWindow",
      count(*) filter (where ${current})::int as "projectActivityCurrentWindow",
      count(*) filter (where ${past})::int as "projectActivityPastWindow",
      coalesce(sum(members_added) filter (where ${current}), 0)::int as "projectMembersAddedCurrentWindow"
    from insights.events where project = ${projectId}`);
}

const LeadTime = z.object({ name: z.string(), timeToProduction: z.number() });

/** Days from creation to the first enabling in a production-type environment, for each flag that got there. */
export async function leadTimes(db: Queryable, projectId: string, flags: readonly string[]) {
  const features = await db.any(sql.type(LeadTime)`
    select c.feature_name as name, round((extract(epoch from min(e.created_at) - c.created_at) / 86400)::numeric, 2)::float8 as "timeToProduction"
    from insights.events c
    join insights.events e on e.feature_name = c.feature_name and e.type = 'feature-environment-enabled' and e.created_at >= c.created_at
    join insights.environment_types t on t.name = e.environment and t.type = 'production'
    where c.type = 'feature-created' and c.project = ${projectId} and c.feature_name = any(${sql.array([...flags], 'text')})
    group by c.feature_name, c.created_at order by c.feature_name`);
  const total = features.reduce((sum, feature) => sum + feature.timeToProduction, 0);
  return { projectAverage: features.length > 0 ? Math.round((total / features.length) * 100) / 100 : 0, features: [...features] };
}
