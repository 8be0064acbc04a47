import type { Queryable } from '@bunting/platform';
import { patStore } from './pat-store.ts';

/** What credential checks may ask of personal access tokens. */
export const patReadModel = {
  findBySecret: (db: Queryable, secret: string) => patStore.findBySecret(db, secret),
  recordUse: (db: Queryable, ids: number[]) => patStore.touchSeen(db, ids),
};
