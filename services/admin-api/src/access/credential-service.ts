import type { Principal, VerifyCredentialRequest } from '@bunting/contracts';
import type { DatabasePool, Logger } from '@bunting/platform';
import { apiTokenStore, type ApiTokenRow } from '../api-tokens/api-token-store.ts';
import { hashSecret } from '../api-tokens/token-secret.ts';

function tokenPrincipal(row: ApiTokenRow): Principal {
  return {
    kind: 'api-token',
    key: `token:${row.id}`,
    name: row.tokenName,
    userId: null,
    tokenType: row.type,
    environment: row.environment,
    projects: row.projects,
    permissions: row.type === 'admin' ? ['ADMIN'] : [],
    projectPermissions: {},
    environmentPermissions: {},
    rootRole: null,
  };
}

/** Extra credential kinds (sessions, personal access tokens) plug in here. */
export type CredentialResolver = (request: VerifyCredentialRequest) => Promise<Principal | null | undefined>;

/**
 * admin-api is the authority for credentials. API tokens are looked up by their hash; seenAt is written
 * in batches off the request path.
 */
export function createCredentialService(deps: { db: DatabasePool; log: Logger }) {
  const resolvers: CredentialResolver[] = [];
  const seen = new Set<number>();
  const flush = setInterval(() => {
    if (seen.size === 0) return;
    const ids = [...seen];
    seen.clear();
    apiTokenStore.touchSeen(deps.db, ids).catch((error) => deps.log.warn({ err: error }, 'could not record token use'));
  }, 5000);

  return {
    addResolver(resolver: CredentialResolver) {
      resolvers.push(resolver);
    },
    async verify(request: VerifyCredentialRequest): Promise<Principal | null> {
      for (const resolver of resolvers) {
        const principal = await resolver(request);
        if (principal !== undefined) return principal;
      }
      if (!request.authorization) return null;
      const row = await apiTokenStore.findByHash(deps.db, hashSecret(request.authorization));
      if (!row) return null;
      if (row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now()) return null;
      seen.add(row.id);
      return tokenPrincipal(row);
    },
    stop() {
      clearInterval(flush);
    },
  };
}
export type CredentialService = ReturnType<typeof createCredentialService>;
