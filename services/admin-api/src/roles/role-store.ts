import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import type { Role } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

export const RoleRow = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.string(),
});
export type RoleRow = z.infer<typeof RoleRow>;

export function roleView(row: RoleRow): Role {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    project: null,
  };
}

const columns = sql.fragment`id, name, description, type`;

export const roleStore = {
  list(db: Queryable, types?: readonly string[]) {
    return db.any(sql.type(RoleRow)`select ${columns} from admin.roles
      ${types ? sql.fragment`where type = any(${sql.array(types, 'text')})` : sql.fragment``} order by id`);
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(RoleRow)`select ${columns} from admin.roles where id = ${id}`);
  },
  getByName(db: Queryable, name: string) {
    return db.maybeOne(sql.type(RoleRow)`select ${columns} from admin.roles where name = ${name}`);
  },
  permissions(db: Queryable, id: number) {
    return db.any(sql.type(z.object({ name: z.string(), environment: z.string().nullable() }))`
      select permission as name, environment from admin.role_permissions where role_id = ${id} order by permission, environment`);
  },
  insert(db: WriteTx, role: { name: string; description: string | null; type: string }) {
    return db.one(sql.type(RoleRow)`insert into admin.roles (name, description, type)
      values (${role.name}, ${role.description}, ${role.type}) returning ${columns}`);
  },
  update(db: WriteTx, id: number, role: { name: string; description: string | null }) {
    return db.query(
      sql.unsafe`update admin.roles set name = ${role.name}, description = ${role.description} where id = ${id}`,
    );
  },
  delete(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.roles where id = ${id}`);
  },
  /** Whether a user or a group holds the role as its root role. */
  isAssigned(db: Queryable, id: number) {
    return db.exists(
      sql.unsafe`select 1 from admin.users where root_role_id = ${id} union all select 1 from admin.groups where root_role_id = ${id}`,
    );
  },
  async setPermissions(db: WriteTx, id: number, grants: readonly { permission: string; environment: string | null }[]) {
    await db.query(sql.unsafe`delete from admin.role_permissions where role_id = ${id}`);
    for (const grant of grants) {
      await db.query(sql.unsafe`insert into admin.role_permissions (role_id, permission, environment)
        values (${id}, ${grant.permission}, ${grant.environment}) on conflict do nothing`);
    }
  },
  environmentExists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.environments where name = ${name}`);
  },
};
