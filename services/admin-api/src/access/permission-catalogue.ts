import { Permission } from '@bunting/platform';

export const ROOT_ROLE = { ADMIN: 1, EDITOR: 2, VIEWER: 3 } as const;
export const PROJECT_ROLE = { OWNER: 4, MEMBER: 5 } as const;

export const PROJECT_USER_ACCESS_WRITE = 'PROJECT_USER_ACCESS_WRITE';
export const PROJECT_USER_ACCESS_READ = 'PROJECT_USER_ACCESS_READ';

/** What changes a flag in one environment of a project. */
const FLAG_ENVIRONMENT_PERMISSIONS = [
  Permission.CREATE_FEATURE_STRATEGY, Permission.UPDATE_FEATURE_STRATEGY, Permission.DELETE_FEATURE_STRATEGY,
  Permission.UPDATE_FEATURE_ENVIRONMENT, Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS,
] as const;

/** Reviewing and applying change requests, and making changes past them, per environment of a project. */
export const CHANGE_REQUEST_PERMISSIONS = [
  Permission.APPROVE_CHANGE_REQUEST, Permission.APPLY_CHANGE_REQUEST, Permission.SKIP_CHANGE_REQUEST,
] as const;

/** Permissions granted per environment of a project (custom project roles may hold any of them). */
export const ENVIRONMENT_PERMISSIONS = [...FLAG_ENVIRONMENT_PERMISSIONS, ...CHANGE_REQUEST_PERMISSIONS] as const;

/**
 * What the built-in roles hold in every environment: changing flags, and approving and applying change requests.
 * Skipping change requests is left to admins and to custom roles that grant it, so turning them on for an
 * environment holds for editors, owners and members alike.
 */
const BUILT_IN_ENVIRONMENT_PERMISSIONS = [...FLAG_ENVIRONMENT_PERMISSIONS, Permission.APPROVE_CHANGE_REQUEST, Permission.APPLY_CHANGE_REQUEST];

/** Permissions granted within one project. */
export const PROJECT_PERMISSIONS = [
  Permission.CREATE_FEATURE, Permission.UPDATE_FEATURE, Permission.DELETE_FEATURE, Permission.UPDATE_FEATURE_VARIANTS,
  Permission.UPDATE_FEATURE_DEPENDENCY, Permission.UPDATE_PROJECT_SEGMENT, Permission.CREATE_PROJECT_API_TOKEN,
  Permission.READ_PROJECT_API_TOKEN, Permission.DELETE_PROJECT_API_TOKEN, Permission.UPDATE_PROJECT,
  Permission.DELETE_PROJECT, PROJECT_USER_ACCESS_READ, PROJECT_USER_ACCESS_WRITE,
] as const;

/** Permissions that apply to the whole instance. */
export const ROOT_PERMISSIONS = [
  Permission.ADMIN, Permission.CREATE_PROJECT, Permission.CREATE_CONTEXT_FIELD, Permission.UPDATE_CONTEXT_FIELD,
  Permission.DELETE_CONTEXT_FIELD, Permission.CREATE_SEGMENT, Permission.UPDATE_SEGMENT, Permission.DELETE_SEGMENT,
  Permission.CREATE_STRATEGY, Permission.UPDATE_STRATEGY, Permission.DELETE_STRATEGY, Permission.CREATE_TAG_TYPE,
  Permission.UPDATE_TAG_TYPE, Permission.DELETE_TAG_TYPE, Permission.UPDATE_APPLICATION, Permission.READ_API_TOKEN,
  Permission.CREATE_CLIENT_API_TOKEN, Permission.UPDATE_CLIENT_API_TOKEN, Permission.DELETE_CLIENT_API_TOKEN,
  Permission.CREATE_FRONTEND_API_TOKEN, Permission.UPDATE_FRONTEND_API_TOKEN, Permission.DELETE_FRONTEND_API_TOKEN,
  Permission.CREATE_ENVIRONMENT, Permission.UPDATE_ENVIRONMENT, Permission.DELETE_ENVIRONMENT,
] as const;

/** What only a project's owners may do there; members may do the rest. */
const OWNER_ONLY = new Set<string>([Permission.UPDATE_PROJECT, Permission.DELETE_PROJECT, PROJECT_USER_ACCESS_WRITE]);
const MEMBER_PROJECT = PROJECT_PERMISSIONS.filter((permission) => !OWNER_ONLY.has(permission));

/** What only admins may do instance-wide; editors may do the rest. */
const ADMIN_ONLY = new Set<string>([Permission.ADMIN, Permission.CREATE_ENVIRONMENT, Permission.UPDATE_ENVIRONMENT, Permission.DELETE_ENVIRONMENT]);
const EDITOR_ROOT = [Permission.READ, ...ROOT_PERMISSIONS.filter((permission) => !ADMIN_ONLY.has(permission))];

export type RolePermissions = { root: string[]; project: string[]; environment: { permission: string; environment: string }[] };

const allEnvironments = (permissions: readonly string[]) => permissions.map((permission) => ({ permission, environment: '*' }));

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
  [PROJECT_ROLE.OWNER]: { root: [], project: [...PROJECT_PERMISSIONS], environment: allEnvironments(BUILT_IN_ENVIRONMENT_PERMISSIONS) },
  [PROJECT_ROLE.MEMBER]: { root: [], project: MEMBER_PROJECT, environment: allEnvironments(BUILT_IN_ENVIRONMENT_PERMISSIONS) },
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
