import type { FastifyRequest } from 'fastify';
import type { Principal } from '@bunting/contracts';
import { Permission, principalOf, requirePermission, type Scope } from '@bunting/platform';

/** The caller, after checking they hold `permission` in `scope`; throws 403 naming it otherwise. */
export function allow(request: FastifyRequest, permission: string, scope: Scope = {}): Principal {
  const principal = principalOf(request);
  requirePermission(principal, permission, scope);
  return principal;
}

/** Reading the admin API needs any admin-capable credential; client and frontend tokens are refused. */
export function allowRead(request: FastifyRequest, scope: Scope = {}): Principal {
  return allow(request, Permission.READ, scope);
}
