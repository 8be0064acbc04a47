import { z } from 'zod';
import type { Role } from '@bunting/contracts';
import { NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';

export const RoleRow = z.object({ id: z.number(), name: z.string(), description: z.string().nullable(), type: z.string() });
export type RoleRow = z.infer<typeof RoleRow>;

export function roleView(row: RoleRow): Role {
  return { id: row.id, type: row.type, name: row.name, ...(row.description !== null ? { description: row.description } : {}), project: null };
}

export const roleStore = {
  list(db: Queryable, types?: readonly string[]) {
    return db.any(sql.type(RoleRow)`select id, name, description, type from admin.roles
      ${types ? sql.fragment`where type = any(${sql.array(types, 'text')})` : sql.fragment``} order by id`);
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(RoleRow)`select id, name, description, type from admin.roles where id = ${id}`);
  },
  getByName(db: Queryable, name: string) {
    return db.maybeOne(sql.type(RoleRow)`select id, name, description, type from admin.roles where name = ${name}`);
  },
  permissions(db: Queryable, id: number) {
    return db.any(sql.type(z.object({ name: z.string(), environment: z.string().nullable() }))`
      select permission as name, environment from admin.role_permissions where role_id = ${id} order by permission, environment`);
  },
};

export const ROOT_ROLE_TYPES = ['root', 'root-custom'];
export const PROJECT_ROLE_TYPES = ['project', 'custom'];

/** A root role given by id or by name ("Admin", "Editor", "Viewer"). */
export async function requireRootRole(db: Queryable, input: number | string, field = 'rootRole'): Promise<RoleRow> {
  const role = typeof input === 'number' ? await roleStore.get(db, input) : await roleStore.getByName(db, input);
  if (!role || !ROOT_ROLE_TYPES.includes(role.type)) throw ValidationError.field(field, `${input} is not a root role`);
  return role;
}

export async function requireProjectRole(db: Queryable, id: number): Promise<RoleRow> {
  const role = await roleStore.get(db, id);
  if (!role || !PROJECT_ROLE_TYPES.includes(role.type)) throw new NotFoundError(`Could not find project role ${id}`);
  return role;
}
