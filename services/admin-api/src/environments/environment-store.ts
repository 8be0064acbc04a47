import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

export const EnvironmentRow = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number(),
  projectCount: z.number(),
  apiTokenCount: z.number(),
  enabledToggleCount: z.number(),
});
export type EnvironmentRow = z.infer<typeof EnvironmentRow>;
const ProjectEnvironmentRow = EnvironmentRow.pick({ name: true, type: true, enabled: true, protected: true, sortOrder: true })
  .extend({ projectApiTokenCount: z.number(), projectEnabledToggleCount: z.number() });

const select = sql.fragment`
  select e.name, e.type, e.enabled, e.protected, e.sort_order as "sortOrder",
    (select count(*) from admin.project_environments pe where pe.environment = e.name)::int as "projectCount",
    (select count(*) from admin.api_tokens t where t.environment = e.name)::int as "apiTokenCount",
    (select count(*) from admin.feature_environments fe join admin.features f on f.name = fe.feature_name
      where fe.environment = e.name and fe.enabled and f.archived_at is null)::int as "enabledToggleCount"
  from admin.environments e`;

export const environmentStore = {
  list(db: Queryable) {
    return db.any(sql.type(EnvironmentRow)`${select} order by e.sort_order, e.name`);
  },
  /** A project's environments with the project's own counts: its API tokens there and its flags enabled there. */
  listForProject(db: Queryable, project: string) {
    return db.any(sql.type(ProjectEnvironmentRow)`
      select e.name, e.type, e.enabled, e.protected, e.sort_order as "sortOrder",
        (select count(*) from admin.api_tokens t where t.environment = e.name
          and (${project} = any(t.projects) or '*' = any(t.projects)))::int as "projectApiTokenCount",
        (select count(*) from admin.feature_environments fe join admin.features f on f.name = fe.feature_name
          where fe.environment = e.name and fe.enabled and f.archived_at is null and f.project_id = ${project})::int as "projectEnabledToggleCount"
      from admin.environments e
      where e.name in (select environment from admin.project_environments where project_id = ${project})
      order by e.sort_order, e.name`);
  },
  get(db: Queryable, name: string) {
    return db.maybeOne(sql.type(EnvironmentRow)`${select} where e.name = ${name}`);
  },
  exists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.environments where name = ${name}`);
  },
  /** Whether it was new (two requests creating one environment at once: only one finds it new). */
  async insert(db: Queryable, environment: { name: string; type: string; enabled: boolean; sortOrder: number }): Promise<boolean> {
    const inserted = await db.query(sql.unsafe`
      insert into admin.environments (name, type, enabled, sort_order)
      values (${environment.name}, ${environment.type}, ${environment.enabled}, ${environment.sortOrder})
      on conflict (name) do nothing`);
    return inserted.rowCount > 0;
  },
  update(db: Queryable, name: string, changes: { type: string; sortOrder: number; enabled: boolean }) {
    return db.query(sql.unsafe`
      update admin.environments set type = ${changes.type}, sort_order = ${changes.sortOrder}, enabled = ${changes.enabled}
      where name = ${name}`);
  },
  delete(db: Queryable, name: string) {
    return db.query(sql.unsafe`delete from admin.environments where name = ${name}`);
  },
  addToAllProjects(db: Queryable, name: string) {
    return db.query(sql.unsafe`
      insert into admin.project_environments (project_id, environment)
      select id, ${name} from admin.projects where archived_at is null on conflict do nothing`);
  },
  setProtected(db: Queryable, names: string[]) {
    return db.query(sql.unsafe`update admin.environments set protected = (name = any(${sql.array(names, 'text')}))`);
  },
  /** Copies every feature's state, strategies and the strategies' segment links from one environment into a new one. */
  copyFlags(db: Queryable, source: string, target: string, projects: string[] | undefined) {
    const projectFilter = projects && projects.length > 0
      ? sql.fragment`and f.project_id = any(${sql.array(projects, 'text')})`
      : sql.fragment``;
    // A CTE with a volatile function is computed once, so the new ids below are the same in every use.
    return db.query(sql.unsafe`
      with copied_env as (
        insert into admin.feature_environments (feature_name, environment, enabled, variants)
        select fe.feature_name, ${target}, fe.enabled, fe.variants from admin.feature_environments fe
        join admin.features f on f.name = fe.feature_name
        where fe.environment = ${source} ${projectFilter}
        returning feature_name
      ), strategy_ids as (
        select s.id as old_id, gen_random_uuid()::text as new_id
        from admin.feature_strategies s join admin.features f on f.name = s.feature_name
        where s.environment = ${source} ${projectFilter}
      ), copied_strategies as (
        insert into admin.feature_strategies (id, feature_name, environment, strategy_name, title, disabled, sort_order, constraints, parameters, variants)
        select ids.new_id, s.feature_name, ${target}, s.strategy_name, s.title, s.disabled, s.sort_order, s.constraints, s.parameters, s.variants
        from strategy_ids ids join admin.feature_strategies s on s.id = ids.old_id
        returning id
      ), copied_segments as (
        insert into admin.feature_strategy_segments (strategy_id, segment_id)
        select ids.new_id, links.segment_id
        from strategy_ids ids join admin.feature_strategy_segments links on links.strategy_id = ids.old_id
        returning strategy_id
      )
      select (select count(*) from copied_env) + (select count(*) from copied_strategies) + (select count(*) from copied_segments)`);
    },
};
