import { z } from 'zod';
import { ProjectStats } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

/** The health report's windows: the last 30 days, and the 30 before them. */
const WINDOW_DAYS = 30;

export type EventFact = {
  uuid: string;
  type: string;
  createdAt: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  membersAdded: number;
};

/**
 * Average days from a flag's creation to its first enabling in a production-type environment, over the flags
 * created in the current window that got there; 0 when none did. For one project, or (null) each row's project `c`.
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

const LeadTime = z.object({ name: z.string(), timeToProduction: z.number() });
const Activity = z.object({ date: z.string(), count: z.number() });
const Count = z.object({ count: z.number() });

/** What insights keeps of the event stream and admin-api's inventory: slim event rows, flags' projects, environments' types. */
export const factStore = {
  async recordEvent(tx: Queryable, fact: EventFact) {
    await tx.query(sql.unsafe`
      insert into insights.events (uuid, type, created_at, project, environment, feature_name, members_added)
      values (${fact.uuid}, ${fact.type}, ${fact.createdAt}, ${fact.project}, ${fact.environment}, ${fact.featureName}, ${fact.membersAdded})
      on conflict (uuid) do nothing`);
  },

  async setFeatureProjects(tx: Queryable, features: readonly (readonly [name: string, project: string])[]) {
    if (features.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.feature_projects (feature_name, project)
      select * from unnest(${sql.array(
        features.map(([name]) => name),
        'text',
      )}::text[], ${sql.array(
        features.map(([, project]) => project),
        'text',
      )}::text[])
      on conflict (feature_name) do update set project = excluded.project`);
  },

  async setEnvironmentTypes(tx: Queryable, environments: readonly { name: string; type: string }[]) {
    if (environments.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.environment_types (name, type)
      select * from unnest(${sql.array(
        environments.map((e) => e.name),
        'text',
      )}::text[], ${sql.array(
        environments.map((e) => e.type),
        'text',
      )}::text[])
      on conflict (name) do update set type = excluded.type`);
  },

  projectWindows(db: Queryable, projectId: string): Promise<ProjectStats> {
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
  },

  /** Days from creation to the first enabling in a production-type environment, for each of the flags that got there. */
  leadTimes(db: Queryable, projectId: string, flags: readonly string[]) {
    return db.any(sql.type(LeadTime)`
      select c.feature_name as name, round((extract(epoch from min(e.created_at) - c.created_at) / 86400)::numeric, 2)::float8 as "timeToProduction"
      from insights.events c
      join insights.events e on e.feature_name = c.feature_name and e.type = 'feature-environment-enabled' and e.created_at >= c.created_at
      join insights.environment_types t on t.name = e.environment and t.type = 'production'
      where c.type = 'feature-created' and c.project = ${projectId} and c.feature_name = any(${sql.array([...flags], 'text')})
      group by c.feature_name, c.created_at order by c.feature_name`);
  },

  /** Events per UTC day over the last year. */
  activityByDay(db: Queryable, projectId: string) {
    return db.any(sql.type(Activity)`
      select to_char((created_at at time zone 'utc')::date, 'YYYY-MM-DD') as date, count(*)::int as count from insights.events
      where project = ${projectId} and created_at >= now() - interval '1 year' group by 1 order by 1`);
  },

  archivedWithin30Days(db: Queryable, projectId: string) {
    return db.oneFirst(sql.type(Count)`
      select count(*)::int as count from insights.events
      where project = ${projectId} and type = 'feature-archived' and created_at >= now() - interval '30 days'`);
  },
};
