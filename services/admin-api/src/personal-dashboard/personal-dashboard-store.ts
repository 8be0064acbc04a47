import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const Flag = z.object({ name: z.string(), project: z.string(), type: z.string() });
const Person = z.object({ id: z.number() });

/** What a person's home page lists that no other slice answers. */
export const personalDashboardStore = {
  /** Active flags the user created or the principal marked favourite. */
  flagsOf(db: Queryable, userId: number | null, principalKey: string) {
    return db.any(sql.type(Flag)`
      select f.name, f.project_id as project, f.type from admin.features f
      where f.archived_at is null and (f.created_by_user_id = ${userId ?? -1}
        or exists (select 1 from admin.favorite_features ff where ff.feature_name = f.name and ff.principal = ${principalKey}))
      order by f.name`);
  },
  usersWithRootRole: (db: Queryable, roleId: number) =>
    db.anyFirst(
      sql.type(Person)`select id from admin.users where root_role_id = ${roleId} and not is_service order by id`,
    ),
  /** The users holding a project role in any of the projects. */
  holdersOfRole: (db: Queryable, roleId: number, projects: readonly string[]) =>
    db.anyFirst(sql.type(Person)`select distinct user_id as id from admin.project_user_roles
      where role_id = ${roleId} and project_id = any(${sql.array([...projects], 'text')}) order by 1`),
};
