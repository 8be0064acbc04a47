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
  listForProject(db: Queryable, project: string) {
    return db.any(sql.type(EnvironmentRow)`${select}
      where e.name in (select environment from admin.project_environments where project_id = ${project})
      order by e.sort_order, e.name`);
  },
  get(db: Queryable, name: string) {
    return db.maybeOne(sql.type(EnvironmentRow)`${select} where e.name = ${name}`);
  },
  exists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.environments where name = ${name}`);
  },
  insert(db: Queryable, environment: { name: string; type: string; enabled: boolean; sortOrder: number }) {
    return db.query(sql.unsafe`
      insert into admin.environments (name, type, enabled, sort_order)
      values (${environment.name}, ${environment.type}, ${environment.enabled}, ${environment.sortOrder})
      on conflict (name) do nothing`);
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
};
