import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf } from './endpoint.ts';

export type Me = AnswerOf<'/api/admin/user'>;
export type Grant = Me['permissions'][number];

/** Who is signed in, with every permission they hold (as /api/admin/user lists them). */
export const meQuery = () => queryOptions({ ...endpointQuery('/api/admin/user'), staleTime: 30_000 });

export const useMe = () => useQuery(meQuery());

/**
 * Whether the grants hold a permission: instance-wide, in the project (or every project, "*"), or in the project's
 * environment, as admin-api decides it. ADMIN holds everything.
 */
export function holds(
  grants: readonly Grant[],
  permission: string,
  scope: { project?: string; environment?: string } = {},
): boolean {
  return grants.some((grant) => {
    if (grant.permission === 'ADMIN' && grant.project === undefined) return true;
    if (grant.permission !== permission) return false;
    if (grant.project === undefined) return true;
    if (scope.project === undefined || (grant.project !== scope.project && grant.project !== '*')) return false;
    if (grant.environment === undefined) return true;
    return grant.environment === '*' || grant.environment === scope.environment;
  });
}

/** A permission check for the signed-in user, with the reason a control is disabled when it does not hold. */
export function usePermission() {
  const me = useMe();
  const grants = me.data?.permissions ?? [];
  return (permission: string, scope: { project?: string; environment?: string } = {}) => {
    const allowed = holds(grants, permission, scope);
    const where = scope.environment ? ` in ${scope.environment}` : scope.project ? ` in project ${scope.project}` : '';
    return { allowed, reason: allowed ? undefined : `You need the ${permission} permission${where}.` };
  };
}
