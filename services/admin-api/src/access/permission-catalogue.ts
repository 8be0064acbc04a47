import {
  ENVIRONMENT_PERMISSIONS,
  FLAG_ENVIRONMENT_PERMISSIONS,
  PROJECT_PERMISSIONS,
  ROOT_PERMISSIONS,
} from '@bunting/contracts';
import { Permission } from '@bunting/platform';

export { ENVIRONMENT_PERMISSIONS, PROJECT_PERMISSIONS, ROOT_PERMISSIONS };

export const ROOT_ROLE = { ADMIN: 1, EDITOR: 2, VIEWER: 3 } as const;
export const PROJECT_ROLE = { OWNER: 4, MEMBER: 5 } as const;

export const PROJECT_USER_ACCESS_WRITE = Permission.PROJECT_USER_ACCESS_WRITE;

/**
 * What the built-in roles hold in every environment: changing flags, and approving and applying change requests.
 * Skipping change requests is left to admins and to custom roles that grant it, so turning them on for an
 * environment holds for editors, owners and members alike.
 */
const BUILT_IN_ENVIRONMENT_PERMISSIONS = [
  ...FLAG_ENVIRONMENT_PERMISSIONS,
  Permission.APPROVE_CHANGE_REQUEST,
  Permission.APPLY_CHANGE_REQUEST,
];

/** What only a project's owners may do there; members may do the rest. */
const OWNER_ONLY = new Set<string>([
  Permission.UPDATE_PROJECT,
  Permission.DELETE_PROJECT,
  PROJECT_USER_ACCESS_WRITE,
  Permission.UPDATE_PROJECT_RELEASE_TEMPLATE,
]);
const MEMBER_PROJECT = PROJECT_PERMISSIONS.filter((permission) => !OWNER_ONLY.has(permission));

/** What only admins may do instance-wide; editors may do the rest. */
const ADMIN_ONLY = new Set<string>([
  Permission.ADMIN,
  Permission.CREATE_ENVIRONMENT,
  Permission.UPDATE_ENVIRONMENT,
  Permission.DELETE_ENVIRONMENT,
  // Instance-wide release templates are every project's: admins and roles that grant them make them.
  Permission.RELEASE_PLAN_TEMPLATE_CREATE,
  Permission.RELEASE_PLAN_TEMPLATE_UPDATE,
  Permission.RELEASE_PLAN_TEMPLATE_DELETE,
]);
const EDITOR_ROOT = [Permission.READ, ...ROOT_PERMISSIONS.filter((permission) => !ADMIN_ONLY.has(permission))];

export type RolePermissions = {
  root: string[];
  project: string[];
  environment: { permission: string; environment: string }[];
};

const allEnvironments = (permissions: readonly string[]) =>
  permissions.map((permission) => ({ permission, environment: '*' }));

/** What the built-in roles grant. Editors may change flags in every project; only admins manage users and roles. */
export const BUILT_IN_ROLES: Record<number, RolePermissions> = {
  [ROOT_ROLE.ADMIN]: { root: [Permission.ADMIN], project: [], environment: [] },
  [ROOT_ROLE.EDITOR]: {
    root: EDITOR_ROOT,
    // Held in every project ("*").
    project: MEMBER_PROJECT,
    environment: allEnvironments(BUILT_IN_ENVIRONMENT_PERMISSIONS),
  },
  [ROOT_ROLE.VIEWER]: { root: [Permission.READ], project: [], environment: [] },
  [PROJECT_ROLE.OWNER]: {
    root: [],
    project: [...PROJECT_PERMISSIONS],
    environment: allEnvironments(BUILT_IN_ENVIRONMENT_PERMISSIONS),
  },
  [PROJECT_ROLE.MEMBER]: {
    root: [],
    project: MEMBER_PROJECT,
    environment: allEnvironments(BUILT_IN_ENVIRONMENT_PERMISSIONS),
  },
};

export function isRootPermission(name: string) {
  return (ROOT_PERMISSIONS as readonly string[]).includes(name);
}
export function isProjectPermission(name: string) {
  return (PROJECT_PERMISSIONS as readonly string[]).includes(name);
}
export function isEnvironmentPermission(name: string) {
  return (ENVIRONMENT_PERMISSIONS as readonly string[]).includes(name);
}
