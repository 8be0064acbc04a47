import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';
import { potentiallyStale } from '../rules/staleness-store.ts';

export const ProjectRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mode: z.enum(['open', 'protected', 'private']),
  defaultStickiness: z.string(),
  featureLimit: z.number().nullable(),
  featureNamingPattern: z.string().nullable(),
  featureNamingExample: z.string().nullable(),
  featureNamingDescription: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  featureCount: z.number(),
  memberCount: z.number(),
  staleFeatureCount: z.number(),
  potentiallyStaleFeatureCount: z.number(),
  environments: z.array(z.string()),
  lastUpdatedAt: z.string().nullable(),
  lastReportedFlagUsage: z.string().nullable(),
  /** The oldest flag ever made in the project (archived ones too), for its onboarding status. */
  firstFlag: z.string().nullable(),
  owners: z.array(
    z.object({
      ownerType: z.enum(['user', 'group']),
      name: z.string(),
      email: z.string().nullable(),
      imageUrl: z.string().nullable(),
    }),
  ),
});
export type ProjectRow = z.infer<typeof ProjectRow>;

/** What writing a flag needs of its project: none of the listing's counts over every flag. */
export const ProjectSettingsRow = ProjectRow.pick({
  defaultStickiness: true,
  featureLimit: true,
  featureNamingPattern: true,
  featureNamingExample: true,
  archivedAt: true,
});
export type ProjectSettingsRow = z.infer<typeof ProjectSettingsRow>;

const select = sql.fragment`
  select p.id, p.name, p.description, p.mode, p.default_stickiness as "defaultStickiness",
    p.feature_limit as "featureLimit", p.feature_naming_pattern as "featureNamingPattern",
    p.feature_naming_example as "featureNamingExample", p.feature_naming_description as "featureNamingDescription",
    p.created_at as "createdAt", p.updated_at as "updatedAt", p.archived_at as "archivedAt",
    (select count(*) from admin.features f where f.project_id = p.id and f.archived_at is null)::int as "featureCount",
    (select count(*) from admin.features f where f.project_id = p.id and f.archived_at is null and f.stale)::int as "staleFeatureCount",
    (select count(*) from admin.features f where f.project_id = p.id and f.archived_at is null
      and ${potentiallyStale})::int as "potentiallyStaleFeatureCount",
    (select count(distinct user_id) from admin.project_user_roles r where r.project_id = p.id)::int as "memberCount",
    coalesce((select array_agg(pe.environment order by e.sort_order, e.name) from admin.project_environments pe
      join admin.environments e on e.name = pe.environment where pe.project_id = p.id), '{}') as environments,
    p.last_activity_at as "lastUpdatedAt",
    (select max(fe.last_seen_at) from admin.feature_environments fe join admin.features f on f.name = fe.feature_name
      where f.project_id = p.id) as "lastReportedFlagUsage",
    (select f.name from admin.features f where f.project_id = p.id order by f.created_at, f.name limit 1) as "firstFlag",
    coalesce((select jsonb_agg(o.owner order by o.kind, o.name) from (
        select 0 as kind, coalesce(u.name, u.username, u.email, 'unknown') as name,
          jsonb_build_object('ownerType', 'user', 'name', coalesce(u.name, u.username, u.email, 'unknown'), 'email', u.email, 'imageUrl', u.image_url) as owner
        from admin.project_user_roles r join admin.users u on u.id = r.user_id join admin.roles ro on ro.id = r.role_id
        where r.project_id = p.id and ro.name = 'Owner'
        union all
        select 1, g.name, jsonb_build_object('ownerType', 'group', 'name', g.name, 'email', null, 'imageUrl', null)
        from admin.project_group_roles r join admin.groups g on g.id = r.group_id join admin.roles ro on ro.id = r.role_id
        where r.project_id = p.id and ro.name = 'Owner') o), '[]'::jsonb) as owners
  from admin.projects p`;

export type ProjectWrite = {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  defaultStickiness: string;
  featureLimit: number | null;
  featureNamingPattern: string | null;
  featureNamingExample: string | null;
  featureNamingDescription: string | null;
};

export const projectStore = {
  list(db: Queryable, includeArchived = false) {
    return db.any(sql.type(ProjectRow)`${select}
      ${includeArchived ? sql.fragment`` : sql.fragment`where p.archived_at is null`} order by p.name, p.id`);
  },
  get(db: Queryable, id: string) {
    return db.maybeOne(sql.type(ProjectRow)`${select} where p.id = ${id}`);
  },
  settings(db: Queryable, id: string) {
    return db.maybeOne(sql.type(ProjectSettingsRow)`
      select p.default_stickiness as "defaultStickiness", p.feature_limit as "featureLimit",
        p.feature_naming_pattern as "featureNamingPattern", p.feature_naming_example as "featureNamingExample",
        p.archived_at as "archivedAt"
      from admin.projects p where p.id = ${id}`);
  },
  activeFlagCount(db: Queryable, id: string) {
    return db.oneFirst(sql.type(z.object({ count: z.number() }))`
      select count(*)::int as count from admin.features where project_id = ${id} and archived_at is null`);
  },
  exists(db: Queryable, id: string) {
    return db.exists(sql.unsafe`select 1 from admin.projects where id = ${id}`);
  },
  insert(db: WriteTx, project: ProjectWrite) {
    return db.query(sql.unsafe`
      insert into admin.projects (id, name, description, mode, default_stickiness, feature_limit,
        feature_naming_pattern, feature_naming_example, feature_naming_description)
      values (${project.id}, ${project.name}, ${project.description}, ${project.mode}, ${project.defaultStickiness},
        ${project.featureLimit}, ${project.featureNamingPattern}, ${project.featureNamingExample}, ${project.featureNamingDescription})`);
  },
  update(db: WriteTx, project: ProjectWrite) {
    return db.query(sql.unsafe`
      update admin.projects set name = ${project.name}, description = ${project.description}, mode = ${project.mode},
        default_stickiness = ${project.defaultStickiness}, feature_limit = ${project.featureLimit},
        feature_naming_pattern = ${project.featureNamingPattern}, feature_naming_example = ${project.featureNamingExample},
        feature_naming_description = ${project.featureNamingDescription}, updated_at = now()
      where id = ${project.id}`);
  },
  setArchived(db: WriteTx, id: string, archived: boolean) {
    return db.query(sql.unsafe`
      update admin.projects set archived_at = ${archived ? sql.fragment`now()` : null}, updated_at = now() where id = ${id}`);
  },
  /** Every change that writes an event about a project moves its last activity on. */
  touch(db: WriteTx, projects: readonly string[]) {
    return db.query(
      sql.unsafe`update admin.projects set last_activity_at = now() where id = any(${sql.array([...projects], 'text')})`,
    );
  },
  delete(db: WriteTx, id: string) {
    return db.query(sql.unsafe`delete from admin.projects where id = ${id}`);
  },
  countFeatures(db: Queryable, id: string, includeArchived: boolean) {
    return db.oneFirst(sql.type(z.object({ count: z.number() }))`
      select count(*)::int as count from admin.features where project_id = ${id}
      ${includeArchived ? sql.fragment`` : sql.fragment`and archived_at is null`}`);
  },
  hasEnvironment(db: Queryable, id: string, environment: string) {
    return db.exists(sql.unsafe`
      select 1 from admin.project_environments where project_id = ${id} and environment = ${environment}`);
  },
  defaultStrategy(db: Queryable, id: string, environment: string) {
    return db.maybeOneFirst(sql.type(z.object({ strategy: z.record(z.string(), z.unknown()).nullable() }))`
      select default_strategy as strategy from admin.project_environments
      where project_id = ${id} and environment = ${environment}`);
  },
  /** Environments of the project in display order, with the strategy each gives flags enabled without one. */
  environmentDefaults(db: Queryable, id: string) {
    return db.any(sql.type(
      z.object({ environment: z.string(), strategy: z.record(z.string(), z.unknown()).nullable() }),
    )`
      select pe.environment, pe.default_strategy as strategy
      from admin.project_environments pe join admin.environments e on e.name = pe.environment
      where pe.project_id = ${id} order by e.sort_order, e.name`);
  },
  /** The environments of each project, in display order. */
  environmentsOf(db: Queryable, ids: readonly string[]) {
    return db.any(sql.type(
      z.object({ project: z.string(), name: z.string(), type: z.string(), sortOrder: z.number() }),
    )`
      select pe.project_id as project, e.name, e.type, e.sort_order as "sortOrder"
      from admin.project_environments pe join admin.environments e on e.name = pe.environment
      where pe.project_id = any(${sql.array(ids, 'text')}) order by e.sort_order, e.name`);
  },
  /** The project's first production-type environment in display order, if it has one. */
  firstProductionEnvironment(db: Queryable, id: string) {
    return db.maybeOneFirst(sql.type(z.object({ name: z.string() }))`
      select e.name from admin.project_environments pe join admin.environments e on e.name = pe.environment
      where pe.project_id = ${id} and e.type = 'production' order by e.sort_order, e.name limit 1`);
  },
  /** Gives a user or a group a role in the project. */
  grant(db: WriteTx, subject: 'user' | 'group', project: string, id: number, roleId: number) {
    return subject === 'user'
      ? db.query(
          sql.unsafe`insert into admin.project_user_roles (project_id, user_id, role_id) values (${project}, ${id}, ${roleId}) on conflict do nothing`,
        )
      : db.query(
          sql.unsafe`insert into admin.project_group_roles (project_id, group_id, role_id) values (${project}, ${id}, ${roleId}) on conflict do nothing`,
        );
  },
  /** Takes every role in the project from a user or a group. */
  revokeAll(db: WriteTx, subject: 'user' | 'group', project: string, id: number) {
    return subject === 'user'
      ? db.query(sql.unsafe`delete from admin.project_user_roles where project_id = ${project} and user_id = ${id}`)
      : db.query(sql.unsafe`delete from admin.project_group_roles where project_id = ${project} and group_id = ${id}`);
  },
  /** Makes a person who created a project its owner, if they are a user (tokens and the system are not). */
  addOwner(db: WriteTx, id: string, userId: number, ownerRoleId: number) {
    return db.query(sql.unsafe`insert into admin.project_user_roles (project_id, user_id, role_id)
      select ${id}, u.id, ${ownerRoleId} from admin.users u where u.id = ${userId}`);
  },
  isFavorite(db: Queryable, principal: string, id: string) {
    return db.exists(
      sql.unsafe`select 1 from admin.favorite_projects where principal = ${principal} and project_id = ${id}`,
    );
  },
  favoriteIds(db: Queryable, principal: string) {
    return db.anyFirst(sql.type(z.object({ id: z.string() }))`
      select project_id as id from admin.favorite_projects where principal = ${principal}`);
  },
  setFavorite(db: WriteTx, principal: string, id: string, favorite: boolean) {
    return favorite
      ? db.query(
          sql.unsafe`insert into admin.favorite_projects (principal, project_id) values (${principal}, ${id}) on conflict do nothing`,
        )
      : db.query(sql.unsafe`delete from admin.favorite_projects where principal = ${principal} and project_id = ${id}`);
  },
};
