import type { Principal, VerifyCredentialRequest } from '@bunting/contracts';
import type { DatabasePool, Logger } from '@bunting/platform';
import { apiTokenReadModel, type ApiTokenRow } from '../api-tokens/api-token-read-model.ts';
import { patReadModel } from '../personal-access-tokens/pat-read-model.ts';
import { resolveUserPrincipal } from './principal-resolver.ts';
import type { SessionStore } from '../sessions/user-sessions.ts';

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

/** Batches "last used" writes off the request path. */
function seenRecorder(flush: (ids: number[]) => Promise<unknown>, log: Logger) {
  const seen = new Set<number>();
  const timer = setInterval(() => {
    if (seen.size === 0) return;
    const ids = [...seen];
    seen.clear();
    flush(ids).catch((error) => log.warn({ err: error }, 'could not record credential use'));
  }, 5000);
  return { add: (id: number) => seen.add(id), stop: () => clearInterval(timer) };
}

/**
 * admin-api is the authority for credentials: API tokens and personal access tokens by their hash, sessions
 * by their id in Redis. A user's permissions are resolved afresh on every check, so a change of role or a
 * deleted user takes effect at once.
 */
export function createCredentialService(deps: { db: DatabasePool; log: Logger; sessions: SessionStore }) {
  const tokensSeen = seenRecorder((ids) => apiTokenReadModel.recordUse(deps.db, ids), deps.log);
  const patsSeen = seenRecorder((ids) => patReadModel.recordUse(deps.db, ids), deps.log);

  async function byAuthorization(secret: string): Promise<Principal | null> {
    if (secret.startsWith('user:')) {
      const pat = await patReadModel.findBySecret(deps.db, secret);
      if (!pat || Date.parse(pat.expiresAt) <= Date.now()) return null;
      patsSeen.add(pat.id);
      return resolveUserPrincipal(deps.db, pat.userId, 'pat');
    }
    const row = await apiTokenReadModel.findBySecret(deps.db, secret);
    if (!row) return null;
    if (row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now()) return null;
    tokensSeen.add(row.id);
    return tokenPrincipal(row);
  }

  return {
    async verify(request: VerifyCredentialRequest): Promise<Principal | null> {
      if (request.authorization) return byAuthorization(request.authorization);
      if (request.session) {
        const userId = await deps.sessions.userOf(request.session);
        if (userId === null) return null;
        const principal = await resolveUserPrincipal(deps.db, userId, 'user');
        return principal && principal.kind === 'user' ? principal : null;
      }
      return null;
    },
    stop() {
      tokensSeen.stop();
      patsSeen.stop();
    },
  };
}
export type CredentialService = ReturnType<typeof createCredentialService>;
