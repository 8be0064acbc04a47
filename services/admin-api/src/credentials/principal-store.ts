import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const UserRow = z.object({
  id: z.number(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  rootRoleId: z.number(),
  isService: z.boolean(),
  /** Whether the root role is the read-only one, which no other grant widens. */
  readOnly: z.boolean(),
});
const Grant = z.object({ roleId: z.number(), project: z.string().nullable() });
const StoredPermission = z.object({
  roleId: z.number(),
  type: z.string(),
  permission: z.string(),
  environment: z.string().nullable(),
});

/** What a user's permissions are resolved from: the user, their groups' and project grants, custom roles' permissions. */
export const principalStore = {
  user(db: Queryable, id: number) {
    return db.maybeOne(sql.type(UserRow)`
      select u.id, u.name, u.username, u.email, u.root_role_id as "rootRoleId", u.is_service as "isService", r.read_only as "readOnly"
      from admin.users u join admin.roles r on r.id = u.root_role_id where u.id = ${id} and u.active`);
  },
  /** Root roles through groups (project null) and project roles, direct and through groups. */
  grants(db: Queryable, userId: number) {
    return db.any(sql.type(Grant)`
      select root_role_id as "roleId", null as project from admin.groups g join admin.group_users gu on gu.group_id = g.id
        where gu.user_id = ${userId} and g.root_role_id is not null
      union all
      select role_id as "roleId", project_id as project from admin.project_user_roles where user_id = ${userId}
      union all
      select pgr.role_id as "roleId", pgr.project_id as project from admin.project_group_roles pgr
        join admin.group_users gu on gu.group_id = pgr.group_id where gu.user_id = ${userId}`);
  },
  customRolePermissions(db: Queryable, roleIds: readonly number[]) {
    return db.any(sql.type(StoredPermission)`
      select rp.role_id as "roleId", r.type, rp.permission, rp.environment from admin.role_permissions rp
      join admin.roles r on r.id = rp.role_id where rp.role_id = any(${sql.array(roleIds, 'int4')})`);
  },
};
