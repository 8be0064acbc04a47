import type { FastifyRequest } from 'fastify';
import type { Principal } from '@bunting/contracts';
import { NoAccessError, authenticate, credentialOf, type CredentialVerifier } from '@bunting/platform';

/** A token the SDK edge accepts, resolved to the environment it evaluates in and the projects it sees. */
export type EdgeAccess = { principal: Principal; environment: string; projects: string[] };

/**
 * Frontend routes take frontend tokens, client routes client tokens; admin tokens work on both, in the
 * environment the request names (default "development").
 */
export async function edgeAccess(verifier: CredentialVerifier, request: FastifyRequest, kind: 'frontend' | 'client', requestedEnvironment?: string): Promise<EdgeAccess> {
  return accessOf(await authenticate(verifier, request), kind, requestedEnvironment);
}

/** The same, answered at once when the credential's check is already known; undefined when it must be asked. */
export function knownEdgeAccess(verifier: CredentialVerifier, request: FastifyRequest, kind: 'frontend' | 'client', requestedEnvironment?: string): EdgeAccess | undefined {
  const principal = verifier.peek?.(credentialOf(request));
  if (!principal) return undefined;
  request.principal = principal;
  return accessOf(principal, kind, requestedEnvironment);
}

function accessOf(principal: Principal, kind: 'frontend' | 'client', requestedEnvironment: string | undefined): EdgeAccess {
  if (principal.tokenType === kind && principal.environment) {
    return { principal, environment: principal.environment, projects: principal.projects };
  }
  if (principal.tokenType === 'admin') {
    return { principal, environment: requestedEnvironment || 'development', projects: ['*'] };
  }
  throw new NoAccessError(kind === 'frontend' ? 'FRONTEND_API_ACCESS' : 'CLIENT_API_ACCESS');
}
