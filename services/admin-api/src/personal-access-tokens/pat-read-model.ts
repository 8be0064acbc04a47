import type { DatabasePool, Queryable } from '@bunting/platform';
import { recordKeeping } from '../events/write-tx.ts';
import { patStore } from './pat-store.ts';

/** What credential checks may ask of personal access tokens. */
export const patReadModel = {
  findBySecret: (db: Queryable, secret: string) => patStore.findBySecret(db, secret),
  recordUse: (db: DatabasePool, ids: number[]) => recordKeeping(db, (tx) => patStore.touchSeen(tx, ids)),
};
