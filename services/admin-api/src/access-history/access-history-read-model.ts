import type { WriteTx } from '../events/write-tx.ts';
import { accessHistoryStore } from './access-history-store.ts';

/** What other slices read of the sign-in history (audit delivery), and the one thing they write: a revocation. */
export const accessHistoryReadModel = {
  after: accessHistoryStore.after,
  lastIdBefore: accessHistoryStore.lastIdBefore,
  revoked: accessHistoryStore.revoked,
  /** Keeps the hash of a deleted token's secret, in the deletion's transaction, so a use of it later is known. */
  revoke: (tx: WriteTx, credential: Parameters<typeof accessHistoryStore.revoke>[1]) =>
    accessHistoryStore.revoke(tx, credential),
};
