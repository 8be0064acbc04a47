import type { CreateRole } from '@bunting/contracts';
import type { WriteTx } from '../events/write-tx.ts';
import { NameExistsError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
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
import { roleStore, roleView, type RoleRow } from './role-store.ts';

type Grant = { name: string; environment?: string | undefined };

// Built in: the five of the first migration and the read-only root role (its id is the installation's own); only
// custom roles ("root-custom", "custom") are made, changed and deleted through the API.
const isBuiltIn = (role: RoleRow) =>
  BUILT_IN_ROLES[role.id] !== undefined || role.type === 'root' || role.type === 'project';

async function roleWithPermissions(db: Queryable, role: RoleRow) {
  const builtIn = BUILT_IN_ROLES[role.id];
  const permissions = builtIn
    ? [
        ...builtIn.root.map((name) => ({ name })),
        ...builtIn.project.map((name) => ({ name })),
        ...builtIn.environment.map(({ permission, environment }) => ({ name: permission, environment })),
      ]
    : (await roleStore.permissions(db, role.id)).map((row) => ({
        name: row.name,
        ...(row.environment ? { environment: row.environment } : {}),
      }));
  return { ...roleView(role), permissions };
}

/** A custom role's permissions must fit its kind: root permissions for root roles, project and environment ones otherwise. */
async function checkGrants(db: Queryable, type: 'root-custom' | 'custom', grants: readonly Grant[]) {
  for (const grant of grants) {
    if (type === 'root-custom') {
      if (!isRootPermission(grant.name))
        throw ValidationError.field('permissions', `${grant.name} is not a root permission`);
      continue;
    }
    if (isEnvironmentPermission(grant.name)) {
      if (!grant.environment) throw ValidationError.field('permissions', `${grant.name} needs an environment`);
      if (grant.environment !== '*' && !(await roleStore.environmentExists(db, grant.environment))) {
        throw ValidationError.field('permissions', `environment ${grant.environment} does not exist`);
      }
    } else if (!isProjectPermission(grant.name)) {
      throw ValidationError.field('permissions', `${grant.name} is not a project or environment permission`);
    }
  }
}

function storeGrants(db: WriteTx, roleId: number, type: 'root-custom' | 'custom', grants: readonly Grant[]) {
  return roleStore.setPermissions(
    db,
    roleId,
    grants.map((grant) => ({
      permission: grant.name,
      environment: type === 'custom' && isEnvironmentPermission(grant.name) ? (grant.environment ?? null) : null,
    })),
  );
}

async function requireRole(db: Queryable, id: number): Promise<RoleRow> {
  const role = await roleStore.get(db, id);
  if (!role) throw new NotFoundError(`Could not find role ${id}`);
  return role;
}

export const roleService = {
  /** 409 when another role already has the name. */
  async validateName(db: Queryable, name: string, roleId?: number) {
    const existing = await roleStore.getByName(db, name);
    if (existing && existing.id !== roleId) throw new NameExistsError(`A role with the name ${name} already exists`);
  },

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
      environments: [
        {
          name: '*',
          permissions: ENVIRONMENT_PERMISSIONS.map((name) => ({ name, displayName: name, type: 'environment' })),
        },
      ],
    };
  },

  async create({ tx, emit }: Change, input: CreateRole) {
    if (await roleStore.getByName(tx, input.name))
      throw new NameExistsError(`A role with the name ${input.name} already exists`);
    const type = input.type ?? 'custom';
    const grants = input.permissions ?? [];
    await checkGrants(tx, type, grants);
    const role = await roleStore.insert(tx, { name: input.name, description: input.description ?? null, type });
    await storeGrants(tx, role.id, type, grants);
    const created = await roleWithPermissions(tx, role);
    emit({ type: 'role-created', data: created });
    return created;
  },

  async update({ tx, emit }: Change, id: number, input: CreateRole) {
    const before = await requireRole(tx, id);
    if (isBuiltIn(before)) throw ValidationError.field('id', `the built-in role ${before.name} cannot be changed`);
    const other = await roleStore.getByName(tx, input.name);
    if (other && other.id !== id) throw new NameExistsError(`A role with the name ${input.name} already exists`);
    const type = before.type as 'root-custom' | 'custom';
    const grants = input.permissions ?? [];
    await checkGrants(tx, type, grants);
    const previous = await roleWithPermissions(tx, before);
    await roleStore.update(tx, id, { name: input.name, description: input.description ?? before.description });
    await storeGrants(tx, id, type, grants);
    const after = await roleWithPermissions(tx, (await roleStore.get(tx, id))!);
    emit({ type: 'role-updated', data: after, preData: previous });
    return after;
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireRole(tx, id);
    if (isBuiltIn(before)) throw ValidationError.field('id', `the built-in role ${before.name} cannot be deleted`);
    if (await roleStore.isAssigned(tx, id))
      throw new NameExistsError(`Role ${before.name} is still assigned; assign users and groups another role first`);
    const previous = await roleWithPermissions(tx, before);
    await roleStore.delete(tx, id);
    emit({ type: 'role-deleted', preData: previous });
  },
};
