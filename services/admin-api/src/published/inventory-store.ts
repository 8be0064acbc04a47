import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import { potentiallyStale } from '../rules/staleness-store.ts';

const int = z.number().int();

const Totals = z.object({
  users: int,
  serviceAccounts: int,
  readOnlyUsers: int,
  seen7: int,
  seen30: int,
  seen60: int,
  seen90: int,
  featureToggles: int,
  archivedFeatureToggles: int,
  projects: int,
  contextFields: int,
  roles: int,
  customRootRoles: int,
  groups: int,
  environments: int,
  segments: int,
  strategies: int,
  adminTokens: int,
  clientTokens: int,
  frontendTokens: int,
  maxEnvironmentStrategies: int,
  maxConstraints: int,
  maxConstraintValues: int,
});

const ProjectCounts = z.object({
  id: z.string(),
  total: int,
  stale: int,
  potentiallyStale: int,
  users: int,
  apiTokens: int,
  segments: int,
});
const FeatureProject = z.object({ name: z.string(), project: z.string() });
const LifecycleGroup = z.object({
  project: z.string(),
  stage: z.string(),
  type: z.string(),
  total: int,
  olderThanWeek: int,
  newThisWeek: int,
  totalDays: z.number(),
});

/** A user counts as seen when they signed in, or used one of their personal access tokens, within the days. */
function seenWithin(days: number) {
  return sql.fragment`(select count(*) from admin.users u where not u.is_service and (
    u.seen_at >= now() - make_interval(days => ${days})
    or exists (select 1 from admin.personal_access_tokens t where t.user_id = u.id
      and t.seen_at >= now() - make_interval(days => ${days}))))::int`;
}

/** Today's counts of what admin-api owns, for the inventory view. */
export const inventoryStore = {
  totals: (db: Queryable) =>
    db.one(sql.type(Totals)`
      select
        (select count(*) from admin.users where not is_service)::int as users,
        (select count(*) from admin.users where is_service)::int as "serviceAccounts",
        (select count(*) from admin.users u join admin.roles r on r.id = u.root_role_id where not u.is_service and r.read_only)::int as "readOnlyUsers",
        ${seenWithin(7)} as seen7, ${seenWithin(30)} as seen30, ${seenWithin(60)} as seen60, ${seenWithin(90)} as seen90,
        (select count(*) from admin.features where archived_at is null)::int as "featureToggles",
        (select count(*) from admin.features where archived_at is not null)::int as "archivedFeatureToggles",
        (select count(*) from admin.projects where archived_at is null)::int as projects,
        (select count(*) from admin.context_fields)::int as "contextFields",
        (select count(*) from admin.roles)::int as roles,
        (select count(*) from admin.roles where type = 'root-custom')::int as "customRootRoles",
        (select count(*) from admin.groups)::int as groups,
        (select count(*) from admin.environments)::int as environments,
        (select count(*) from admin.segments)::int as segments,
        (select count(*) from admin.strategies)::int as strategies,
        (select count(*) from admin.api_tokens where type = 'admin')::int as "adminTokens",
        (select count(*) from admin.api_tokens where type = 'client')::int as "clientTokens",
        (select count(*) from admin.api_tokens where type = 'frontend')::int as "frontendTokens",
        coalesce((select max(n) from (select count(*) as n from admin.feature_strategies
          group by feature_name, environment) per_environment), 0)::int as "maxEnvironmentStrategies",
        coalesce((select max(jsonb_array_length(constraints)) from admin.feature_strategies), 0)::int as "maxConstraints",
        coalesce((select max(jsonb_array_length(coalesce(c -> 'values', '[]'::jsonb)))
          from admin.feature_strategies s, jsonb_array_elements(s.constraints) c), 0)::int as "maxConstraintValues"`),
  projects: (db: Queryable) =>
    db.any(sql.type(ProjectCounts)`
      select p.id,
        count(f.name)::int as total,
        count(f.name) filter (where f.stale)::int as stale,
        count(f.name) filter (where ${potentiallyStale})::int as "potentiallyStale",
        (select count(distinct r.user_id) from admin.project_user_roles r where r.project_id = p.id)::int as users,
        (select count(*) from admin.api_tokens t where p.id = any(t.projects))::int as "apiTokens",
        (select count(*) from admin.segments s where s.project = p.id)::int as segments
      from admin.projects p
      left join admin.features f on f.project_id = p.id and f.archived_at is null
      where p.archived_at is null
      group by p.id order by p.id`),
  featureProjects: (db: Queryable) =>
    db.any(sql.type(FeatureProject)`select name, project_id as project from admin.features where archived_at is null`),
  environments: (db: Queryable) =>
    db.any(sql.type(z.object({ name: z.string(), type: z.string() }))`
      select name, type from admin.environments order by sort_order, name`),
  lifecycle: (db: Queryable) =>
    db.any(sql.type(LifecycleGroup)`
      select project_id as project, lifecycle_stage as stage, type, count(*)::int as total,
        count(*) filter (where lifecycle_entered_at < now() - interval '7 days')::int as "olderThanWeek",
        count(*) filter (where lifecycle_entered_at >= now() - interval '7 days')::int as "newThisWeek",
        coalesce(sum(extract(epoch from now() - lifecycle_entered_at) / 86400), 0)::float8 as "totalDays"
      from admin.features group by project_id, lifecycle_stage, type order by 1, 2, 3`),
};
