import type { AgentScope, AgentToken } from '@bunting/contracts';
import { NotFoundError } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { agentTokenStore, newAgentSecret, type AgentTokenRow } from './agent-token-store.ts';

// The spec's event list is closed: an agent's token is a kind of personal access token in the log.
const eventState = (row: Pick<AgentTokenRow, 'id' | 'userId' | 'clientName' | 'scopes' | 'expiresAt'>) => ({
  id: row.id,
  kind: 'agent',
  description: `${row.clientName} (MCP, ${row.scopes.join(' ')})`,
  userId: row.userId,
  scopes: row.scopes,
  expiresAt: row.expiresAt,
});

export const agentTokenView = (row: AgentTokenRow): AgentToken => ({ ...row });

export const agentTokenService = {
  async list(db: Parameters<typeof agentTokenStore.list>[0], userId: number | null) {
    return { agents: (await agentTokenStore.list(db, userId)).map(agentTokenView) };
  },

  /** The secret is in this answer only; the database keeps its hash. */
  async issue(
    change: Change,
    grant: {
      userId: number;
      clientId: string;
      clientName: string;
      scopes: AgentScope[];
      resource: string;
      expiresAt: string;
    },
  ) {
    const secret = newAgentSecret();
    const row = await agentTokenStore.insert(change.tx, { ...grant, secret });
    change.emit({ type: 'pat-created', data: eventState(row) });
    return { row, secret };
  },

  /** Revokes one; `userId` limits it to that person's own (null: an admin's, any). */
  async revoke(change: Change, id: number, userId: number | null) {
    const row = await agentTokenStore.get(change.tx, id);
    if (!row || (userId !== null && row.userId !== userId))
      throw new NotFoundError(`Could not find the connected agent ${id}`);
    await agentTokenStore.delete(change.tx, id);
    change.emit({ type: 'pat-deleted', data: eventState(row) });
  },

  /** Every agent of a person who can no longer sign in. */
  async revokeAllOf(change: Change, userId: number) {
    for (const row of await agentTokenStore.deleteOf(change.tx, userId)) {
      change.emit({
        type: 'pat-deleted',
        data: { id: row.id, kind: 'agent', description: `${row.clientName} (MCP)`, userId },
      });
    }
  },
};
