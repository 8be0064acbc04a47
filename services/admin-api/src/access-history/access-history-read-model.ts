import type { DatabasePool, Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';
import { accessHistoryStore } from './access-history-store.ts';

/** What other slices read of the sign-in history (audit delivery), and the one thing they write: a revocation. */
export const accessHistoryReadModel = {
  after: (db: Queryable, id: number, limit: number) => accessHistoryStore.after(db, id, limit),
  lastIdBefore: (db: Queryable, time: Date) => accessHistoryStore.lastIdBefore(db, time),
  revoked: (db: DatabasePool, hash: string) => accessHistoryStore.revoked(db, hash),
  /** Keeps the hash of a deleted token's secret, in the deletion's transaction, so a use of it later is known. */
  revoke: (tx: WriteTx, credential: Parameters<typeof accessHistoryStore.revoke>[1]) =>
    accessHistoryStore.revoke(tx, credential),
};
