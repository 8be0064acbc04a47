import type { CreateRole } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import {
  BUILT_IN_ROLES,
  ENVIRONMENT_PERMISSIONS,
  PROJECT_PERMISSIONS,
  ROOT_PERMISSIONS,
  isEnvironmentPermission,
  isProjectPermission,
  isRootPermission,
} from '../access/permission-catalogue.ts';
import { RoleRow, roleStore, roleView } from './role-store.ts';

type Grant = { name: string; environment?: string | undefined };

async function roleWithPermissions(db: Queryable, role: RoleRow) {
  const builtIn = BUILT_IN_ROLES[role.id];
  const permissions = builtIn
    ? [...builtIn.root.map((name) => ({ name })), ...builtIn.project.map((name) => ({ name })), ...builtIn.environment.map(({ permission, environment }) => ({ name: permission, environment }))]
    : (await roleStore.permissions(db, role.id)).map((row) => ({ name: row.name, ...(row.environment ? { environment: row.environment } : {}) }));
  return { ...roleView(role), permissions };
}

/** A custom role's permissions must fit its kind: root permissions for root roles, project and environment ones otherwise. */
async function checkGrants(db: Queryable, type: 'root-custom' | 'custom', grants: readonly Grant[]) {
  for (const grant of grants) {
    if (type === 'root-custom') {
      if (!isRootPermission(grant.name)) throw ValidationError.field('permissions', `${grant.name} is not a root permission`);
      continue;
    }
    if (isEnvironmentPermission(grant.name)) {
      if (!grant.environment) throw ValidationError.field('permissions', `${grant.name} needs an environment`);
      if (grant.environment !== '*' && !(await db.exists(sql.unsafe`select 1 from admin.environments where name = ${grant.environment}`))) {
        throw ValidationError.field('permissions', `environment ${grant.environment} does not exist`);
      }
    } else if (!isProjectPermission(grant.name)) {
      throw ValidationError.field('permissions', `${grant.name} is not a project or environment permission`);
    }
  }
}

async function storeGrants(db: Queryable, roleId: number, type: 'root-custom' | 'custom', grants: readonly Grant[]) {
  await db.query(sql.unsafe`delete from admin.role_permissions where role_id = ${roleId}`);
  for (const grant of grants) {
    const environment = type === 'custom' && isEnvironmentPermission(grant.name) ? grant.environment ?? null : null;
    await db.query(sql.unsafe`insert into admin.role_permissions (role_id, permission, environment)
      values (${roleId}, ${grant.name}, ${environment}) on conflict do nothing`);
  }
}

export async function requireRole(db: Queryable, id: number): Promise<RoleRow> {
  const role = await roleStore.get(db, id);
  if (!role) throw new NotFoundError(`Could not find role ${id}`);
  return role;
}

export const roleService = {
  async list(db: Queryable) {
    return { version: 1, roles: (await roleStore.list(db)).map(roleView) };
  },

  async get(db: Queryable, id: number) {
    return roleWithPermissions(db, await requireRole(db, id));
  },

  permissionCatalogue() {
    return {
      root: ROOT_PERMISSIONS.map((name) => ({ name, displayName: name, type: 'root' })),
      project: PROJECT_PERMISSIONS.map((name) => ({ name, displayName: name, type: 'project' })),
      environments: [{ name: '*', permissions: ENVIRONMENT_PERMISSIONS.map((name) => ({ name, displayName: name, type: 'environment' })) }],
    };
  },

  async create({ tx, emit }: Change, input: CreateRole) {
    if (await roleStore.getByName(tx, input.name)) throw new NameExistsError(`A role with the name ${input.name} already exists`);
    const type = input.type ?? 'custom';
    const grants = input.permissions ?? [];
    await checkGrants(tx, type, grants);
    const role = await tx.one(sql.type(RoleRow)`insert into admin.roles (name, description, type)
      values (${input.name}, ${input.description ?? null}, ${type}) returning id, name, description, type`);
    await storeGrants(tx, role.id, type, grants);
    const created = await roleWithPermissions(tx, role);
    emit({ type: 'role-created', data: created });
    return created;
  },

  async update({ tx, emit }: Change, id: number, input: CreateRole) {
    const before = await requireRole(tx, id);
    if (BUILT_IN_ROLES[id]) throw ValidationError.field('id', `the built-in role ${before.name} cannot be changed`);
    const other = await roleStore.getByName(tx, input.name);
    if (other && other.id !== id) throw new NameExistsError(`A role with the name ${input.name} already exists`);
    const type = before.type as 'root-custom' | 'custom';
    const grants = input.permissions ?? [];
    await checkGrants(tx, type, grants);
    const previous = await roleWithPermissions(tx, before);
    await tx.query(sql.unsafe`update admin.roles set name = ${input.name}, description = ${input.description ?? before.description} where id = ${id}`);
    await storeGrants(tx, id, type, grants);
    const after = await roleWithPermissions(tx, (await roleStore.get(tx, id))!);
    emit({ type: 'role-updated', data: after, preData: previous });
    return after;
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireRole(tx, id);
    if (BUILT_IN_ROLES[id]) throw ValidationError.field('id', `the built-in role ${before.name} cannot be deleted`);
    const inUse = await tx.exists(sql.unsafe`select 1 from admin.users where root_role_id = ${id}
      union all select 1 from admin.groups where root_role_id = ${id}`);
    if (inUse) throw new NameExistsError(`Role ${before.name} is still assigned; assign users and groups another role first`);
    const previous = await roleWithPermissions(tx, before);
    await tx.query(sql.unsafe`delete from admin.roles where id = ${id}`);
    emit({ type: 'role-deleted', preData: previous });
  },
};

