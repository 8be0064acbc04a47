import type { Principal, VerifyCredentialRequest } from '@bunting/contracts';
import { Permission, type DatabasePool, type Logger } from '@bunting/platform';
import type { AgentDelegations } from '../agent-tokens/agent-delegations.ts';
import { agentTokenReadModel, type AgentTokenRow } from '../agent-tokens/agent-token-read-model.ts';
import { apiTokenReadModel, type ApiTokenRow } from '../api-tokens/api-token-read-model.ts';
import { patReadModel } from '../personal-access-tokens/pat-read-model.ts';
import { resolveUserPrincipal } from './principal-resolver.ts';
import type { SessionStore } from '../sessions/user-sessions.ts';
import { accessHistoryReadModel } from '../access-history/access-history-read-model.ts';
import { recordAccess } from '../access-history/access-recorder.ts';
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

/**
 * An agent acts as its person within what the person consented to: reading alone for `mcp:read`. Its own token is
 * for the endpoint it was issued for; the MCP server's delegated credential for it has no such bound.
 */
async function agentPrincipal(
  db: DatabasePool,
  row: AgentTokenRow,
  audience: string | undefined,
): Promise<Principal | null> {
  if (Date.parse(row.expiresAt) <= Date.now()) return null;
  const person = await resolveUserPrincipal(db, row.userId, 'agent', `agent:${row.id}`);
  if (!person || person.kind !== 'agent') return null;
  const writes = row.scopes.includes('mcp:write');
  return {
    ...person,
    ...(writes ? {} : { permissions: [Permission.READ], projectPermissions: {}, environmentPermissions: {} }),
    scopes: row.scopes,
    ...(audience === undefined ? {} : { audience }),
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
export function createCredentialService(deps: {
  db: DatabasePool;
  log: Logger;
  sessions: SessionStore;
  delegations: AgentDelegations;
  agentAudience: string;
}) {
  const tokensSeen = seenRecorder((ids) => apiTokenReadModel.recordUse(deps.db, ids), deps.log);
  const patsSeen = seenRecorder((ids) => patReadModel.recordUse(deps.db, ids), deps.log);
  const agentsSeen = seenRecorder((ids) => agentTokenReadModel.recordUse(deps.db, ids), deps.log);

  // A revoked secret used again is recorded once a minute at most per secret, however often it is tried.
  const revokedSeen = new Map<string, number>();
  async function revokedUse(secret: string, client: VerifyCredentialRequest['client']): Promise<void> {
    const hash = hashSecret(secret);
    const last = revokedSeen.get(hash);
    if (last !== undefined && Date.now() - last < 60_000) return;
    const revoked = await accessHistoryReadModel.revoked(deps.db, hash);
    if (!revoked) return;
    if (revokedSeen.size >= 10_000) revokedSeen.clear();
    revokedSeen.set(hash, Date.now());
    await recordAccess(deps.db, deps.log, client ?? { address: null, userAgent: null }, {
      method: revoked.kind === 'personal-access-token' ? 'personal-access-token' : 'api-token',
      action: 'revoked-use',
      outcome: 'failure',
      userId: revoked.userId,
      detail: revoked.name === null ? 'a revoked token' : `revoked token ${revoked.name}`,
    });
  }

  async function byAuthorization(secret: string, client: VerifyCredentialRequest['client']): Promise<Principal | null> {
    if (secret.startsWith('agent:')) {
      const row = await agentTokenReadModel.findBySecret(deps.db, secret);
      if (!row) return null;
      agentsSeen.add(row.id);
      return agentPrincipal(deps.db, row, deps.agentAudience);
    }
    if (deps.delegations.isDelegation(secret)) {
      const id = await deps.delegations.tokenOf(secret);
      const row = id === null ? null : await agentTokenReadModel.find(deps.db, id);
      return row ? agentPrincipal(deps.db, row, undefined) : null;
    }
    if (secret.startsWith('user:')) {
      const pat = await patReadModel.findBySecret(deps.db, secret);
      if (!pat) await revokedUse(secret, client);
      if (!pat || Date.parse(pat.expiresAt) <= Date.now()) return null;
      patsSeen.add(pat.id);
      return resolveUserPrincipal(deps.db, pat.userId, 'pat');
    }
    const row = await apiTokenReadModel.findBySecret(deps.db, secret);
    if (!row) {
      await revokedUse(secret, client);
      return null;
    }
    if (row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now()) return null;
    tokensSeen.add(row.id);
    return tokenPrincipal(row);
  }

  return {
    async verify(request: VerifyCredentialRequest): Promise<Principal | null> {
      if (request.authorization) return byAuthorization(request.authorization, request.client);
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
      agentsSeen.stop();
    },
  };
}
export type CredentialService = ReturnType<typeof createCredentialService>;
