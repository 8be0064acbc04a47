import { Permission, type Principal } from '@bunting/contracts';
import { NoAccessError } from './errors.ts';

export { Permission };

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
