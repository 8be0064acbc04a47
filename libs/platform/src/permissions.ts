import type { Principal } from '@bunting/contracts';
import { NoAccessError } from './errors.ts';

/** Permission names as Unleash uses them. READ is what any admin-API caller has; client tokens lack it. */
export const Permission = {
  ADMIN: 'ADMIN',
  READ: 'READ',
  CREATE_FEATURE: 'CREATE_FEATURE',
  UPDATE_FEATURE: 'UPDATE_FEATURE',
  DELETE_FEATURE: 'DELETE_FEATURE',
  CREATE_FEATURE_STRATEGY: 'CREATE_FEATURE_STRATEGY',
  UPDATE_FEATURE_STRATEGY: 'UPDATE_FEATURE_STRATEGY',
  DELETE_FEATURE_STRATEGY: 'DELETE_FEATURE_STRATEGY',
  UPDATE_FEATURE_ENVIRONMENT: 'UPDATE_FEATURE_ENVIRONMENT',
  UPDATE_FEATURE_ENVIRONMENT_VARIANTS: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  UPDATE_FEATURE_VARIANTS: 'UPDATE_FEATURE_VARIANTS',
  UPDATE_FEATURE_DEPENDENCY: 'UPDATE_FEATURE_DEPENDENCY',
  CREATE_PROJECT: 'CREATE_PROJECT',
  UPDATE_PROJECT: 'UPDATE_PROJECT',
  DELETE_PROJECT: 'DELETE_PROJECT',
  UPDATE_PROJECT_SEGMENT: 'UPDATE_PROJECT_SEGMENT',
  CREATE_SEGMENT: 'CREATE_SEGMENT',
  UPDATE_SEGMENT: 'UPDATE_SEGMENT',
  DELETE_SEGMENT: 'DELETE_SEGMENT',
  CREATE_CONTEXT_FIELD: 'CREATE_CONTEXT_FIELD',
  UPDATE_CONTEXT_FIELD: 'UPDATE_CONTEXT_FIELD',
  DELETE_CONTEXT_FIELD: 'DELETE_CONTEXT_FIELD',
  CREATE_TAG_TYPE: 'CREATE_TAG_TYPE',
  UPDATE_TAG_TYPE: 'UPDATE_TAG_TYPE',
  DELETE_TAG_TYPE: 'DELETE_TAG_TYPE',
  CREATE_STRATEGY: 'CREATE_STRATEGY',
  UPDATE_STRATEGY: 'UPDATE_STRATEGY',
  DELETE_STRATEGY: 'DELETE_STRATEGY',
  CREATE_ENVIRONMENT: 'CREATE_ENVIRONMENT',
  UPDATE_ENVIRONMENT: 'UPDATE_ENVIRONMENT',
  DELETE_ENVIRONMENT: 'DELETE_ENVIRONMENT',
  UPDATE_APPLICATION: 'UPDATE_APPLICATION',
  READ_API_TOKEN: 'READ_API_TOKEN',
  CREATE_CLIENT_API_TOKEN: 'CREATE_CLIENT_API_TOKEN',
  CREATE_FRONTEND_API_TOKEN: 'CREATE_FRONTEND_API_TOKEN',
  UPDATE_CLIENT_API_TOKEN: 'UPDATE_CLIENT_API_TOKEN',
  UPDATE_FRONTEND_API_TOKEN: 'UPDATE_FRONTEND_API_TOKEN',
  DELETE_CLIENT_API_TOKEN: 'DELETE_CLIENT_API_TOKEN',
  DELETE_FRONTEND_API_TOKEN: 'DELETE_FRONTEND_API_TOKEN',
  CREATE_PROJECT_API_TOKEN: 'CREATE_PROJECT_API_TOKEN',
  READ_PROJECT_API_TOKEN: 'READ_PROJECT_API_TOKEN',
  DELETE_PROJECT_API_TOKEN: 'DELETE_PROJECT_API_TOKEN',
  PROJECT_USER_ACCESS_READ: 'PROJECT_USER_ACCESS_READ',
  PROJECT_USER_ACCESS_WRITE: 'PROJECT_USER_ACCESS_WRITE',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

export type Scope = { project?: string | null; environment?: string | null };

/**
 * Whether the principal holds a permission in a scope: instance-wide, in the project (or every project, "*"),
 * or in the project's environment (an environment of "*" meaning all of them).
 */
export function hasPermission(principal: Principal, permission: string, scope: Scope = {}): boolean {
  if (principal.permissions.includes(Permission.ADMIN)) return true;
  if (principal.permissions.includes(permission)) return true;
  const project = scope.project;
  if (!project) return false;
  for (const key of [project, '*']) {
    if (principal.projectPermissions[key]?.includes(permission)) return true;
    const environments = [`${key}:*`, ...(scope.environment ? [`${key}:${scope.environment}`] : [])];
    for (const environment of environments) {
      if (principal.environmentPermissions[environment]?.includes(permission)) return true;
    }
  }
  return false;
}

/** Throws 403 NoAccessError naming the missing permission (and environment) unless the principal holds it. */
export function requirePermission(principal: Principal, permission: string, scope: Scope = {}): void {
  if (!hasPermission(principal, permission, scope)) throw new NoAccessError(permission, scope.environment);
}
