import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
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
const ProjectEnvironmentRow = EnvironmentRow.pick({
  name: true,
  type: true,
  enabled: true,
  protected: true,
  sortOrder: true,
}).extend({ projectApiTokenCount: z.number(), projectEnabledToggleCount: z.number() });

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
  async insert(
    db: WriteTx,
    environment: { name: string; type: string; enabled: boolean; sortOrder: number },
  ): Promise<boolean> {
    const inserted = await db.query(sql.unsafe`
      insert into admin.environments (name, type, enabled, sort_order)
      values (${environment.name}, ${environment.type}, ${environment.enabled}, ${environment.sortOrder})
      on conflict (name) do nothing`);
    return inserted.rowCount > 0;
  },
  update(db: WriteTx, name: string, changes: { type: string; sortOrder: number; enabled: boolean }) {
    return db.query(sql.unsafe`
      update admin.environments set type = ${changes.type}, sort_order = ${changes.sortOrder}, enabled = ${changes.enabled}
      where name = ${name}`);
  },
  delete(db: WriteTx, name: string) {
    return db.query(sql.unsafe`delete from admin.environments where name = ${name}`);
  },
  addToProject(db: WriteTx, project: string, environment: string) {
    return db.query(sql.unsafe`
      insert into admin.project_environments (project_id, environment) values (${project}, ${environment}) on conflict do nothing`);
  },
  removeFromProject(db: WriteTx, project: string, environment: string) {
    return db.query(
      sql.unsafe`delete from admin.project_environments where project_id = ${project} and environment = ${environment}`,
    );
  },
  setDefaultStrategy(db: WriteTx, project: string, environment: string, strategy: unknown) {
    return db.query(sql.unsafe`
      update admin.project_environments set default_strategy = ${sql.jsonb(strategy as object)}
      where project_id = ${project} and environment = ${environment}`);
  },
  addToAllProjects(db: WriteTx, name: string) {
    return db.query(sql.unsafe`
      insert into admin.project_environments (project_id, environment)
      select id, ${name} from admin.projects where archived_at is null on conflict do nothing`);
  },
  setProtected(db: WriteTx, names: string[]) {
    return db.query(sql.unsafe`update admin.environments set protected = (name = any(${sql.array(names, 'text')}))`);
  },
};
