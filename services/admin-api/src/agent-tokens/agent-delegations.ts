import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from '@bunting/platform';

/** How long the MCP server's credential for one request may be used: longer than any tool call takes. */
const DELEGATION_SECONDS = 600;
const PREFIX = 'delegated:';

/**
 * An agent's token works at the MCP endpoint only. The MCP server then calls the API for the agent (in this
 * process, or through the installation's address for routes other services serve) with a credential of its own
 * made for that one request: it names the agent's token, never leaves the server, and is dropped when the request
 * ends. It is kept in Redis so that any admin-api replica resolves it for the service asked.
 */
export function agentDelegations(redis: Redis, namespace: string) {
  const key = (secret: string) => `${namespace}:agent-delegation:${createHash('sha256').update(secret).digest('hex')}`;
  return {
    isDelegation: (secret: string) => secret.startsWith(PREFIX),
    async issue(agentTokenId: number): Promise<string> {
      const secret = `${PREFIX}${randomBytes(32).toString('base64url')}`;
      await redis.set(key(secret), String(agentTokenId), 'EX', DELEGATION_SECONDS);
      return secret;
    },
    /** The agent's token the credential acts for, or null when it is unknown or over. */
    async tokenOf(secret: string): Promise<number | null> {
      const stored = await redis.get(key(secret));
      return stored === null ? null : Number(stored);
    },
    async end(secret: string): Promise<void> {
      await redis.del(key(secret));
    },
  };
}
export type AgentDelegations = ReturnType<typeof agentDelegations>;
