import type { Queryable } from '@bunting/platform';
import { endpointStore } from './endpoint-store.ts';

/** What the rest of signals may ask of endpoints: the endpoint a signal is posted to, and the token it came with. */
export const endpointReadModel = {
  byName: (db: Queryable, name: string) => endpointStore.byName(db, name),
  exists: async (db: Queryable, id: number) => (await endpointStore.get(db, id)) !== null,
  tokenByHash: (db: Queryable, endpointId: number, secretHash: string) =>
    endpointStore.tokenByHash(db, endpointId, secretHash),
};
