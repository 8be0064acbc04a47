import type { Principal } from '@bunting/contracts';
import { Permission, type Queryable } from '@bunting/platform';
import { BUILT_IN_ROLES, type RolePermissions } from '../access/permission-catalogue.ts';
import { principalStore } from './principal-store.ts';

/** The name events record for a user: username, else email, else name. */
export function displayName(user: {
  username: string | null;
  email: string | null;
  name: string | null;
  id: number;
}): string {
  return user.username ?? user.email ?? user.name ?? `user-${user.id}`;
}

async function rolePermissions(db: Queryable, roleIds: readonly number[]): Promise<Map<number, RolePermissions>> {
  const result = new Map<number, RolePermissions>();
  const custom: number[] = [];
  for (const id of new Set(roleIds)) {
    const builtIn = BUILT_IN_ROLES[id];
    if (builtIn) result.set(id, builtIn);
    else custom.push(id);
  }
  if (custom.length > 0) {
    const rows = await principalStore.customRolePermissions(db, custom);
    for (const id of custom) result.set(id, { root: [], project: [], environment: [] });
    for (const row of rows) {
      const entry = result.get(row.roleId)!;
      if (row.type === 'root-custom') entry.root.push(row.permission);
      else if (row.environment) entry.environment.push({ permission: row.permission, environment: row.environment });
      else entry.project.push(row.permission);
    }
  }
  return result;
}

/**
 * Everything a user may do, resolved from their root role, their groups' root roles, and their project roles
 * (direct and through groups). Returns null for a user that no longer exists.
 */
export async function resolveUserPrincipal(
  db: Queryable,
  userId: number,
  kind: Principal['kind'],
  key?: string,
): Promise<Principal | null> {
  const user = await principalStore.user(db, userId);
  if (!user) return null;
  // Read-only: reading alone, whatever project roles and groups say, and so through every token acting as them.
  const grants = user.readOnly ? [] : await principalStore.grants(db, userId);
  const roots = [user.rootRoleId, ...grants.filter((grant) => grant.project === null).map((grant) => grant.roleId)];
  const permissionsByRole = await rolePermissions(db, [...roots, ...grants.map((grant) => grant.roleId)]);

  const permissions = new Set<string>([Permission.READ]);
  const projectPermissions: Record<string, string[]> = {};
  const environmentPermissions: Record<string, string[]> = {};
  const grantIn = (project: string, role: RolePermissions) => {
    if (role.project.length > 0)
      projectPermissions[project] = [...new Set([...(projectPermissions[project] ?? []), ...role.project])];
    for (const { permission, environment } of role.environment) {
      const scope = `${project}:${environment}`;
      environmentPermissions[scope] = [...new Set([...(environmentPermissions[scope] ?? []), permission])];
    }
  };
  for (const roleId of roots) {
    const role = permissionsByRole.get(roleId);
    if (!role) continue;
    for (const permission of role.root) permissions.add(permission);
    // A root role's project permissions hold in every project.
    grantIn('*', role);
  }
  for (const grant of grants) {
    if (grant.project === null) continue;
    const role = permissionsByRole.get(grant.roleId);
    if (role) grantIn(grant.project, role);
  }
  return {
    kind: user.isService ? 'service-account' : kind,
    key: key ?? `user:${user.id}`,
    name: displayName(user),
    userId: user.id,
    tokenType: null,
    environment: null,
    projects: ['*'],
    permissions: [...permissions],
    projectPermissions,
    environmentPermissions,
    rootRole: user.rootRoleId,
  };
}
