import type { Queryable } from '@bunting/platform';
import { agentTokenStore } from './agent-token-store.ts';

/** What credential checks may ask of agents' tokens. */
export const agentTokenReadModel = {
  findBySecret: (db: Queryable, secret: string) => agentTokenStore.findBySecret(db, secret),
  find: (db: Queryable, id: number) => agentTokenStore.get(db, id),
  recordUse: (db: Queryable, ids: number[]) => agentTokenStore.touchSeen(db, ids),
};
