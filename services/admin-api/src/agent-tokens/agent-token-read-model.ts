import type { DatabasePool, Queryable } from '@bunting/platform';
import { recordKeeping } from '../events/write-tx.ts';
import { agentTokenStore } from './agent-token-store.ts';

export type { AgentTokenRow } from './agent-token-store.ts';

/** What credential checks may ask of agents' tokens. */
export const agentTokenReadModel = {
  findBySecret: (db: Queryable, secret: string) => agentTokenStore.findBySecret(db, secret),
  find: (db: Queryable, id: number) => agentTokenStore.get(db, id),
  recordUse: (db: DatabasePool, ids: number[]) => recordKeeping(db, (tx) => agentTokenStore.touchSeen(tx, ids)),
};
