import type { DatabasePool, DatabaseTransactionConnection } from '@bunting/platform';

declare const unitOfWork: unique symbol;

/**
 * The connection a store writes through: the transaction of a unit of work (`changes.run`), never the pool. A store
 * method that writes takes it, so every write runs where its events are written and the change-request gate looks
 * at them, and a route cannot write around the gate by passing `db`.
 */
export type WriteTx = DatabaseTransactionConnection & { readonly [unitOfWork]: true };

/**
 * A transaction for records that are no configuration and no change anyone made: when a credential was last used,
 * what a webhook delivery or a mail did, what SDKs reported. Only background work and credential checks use it; a
 * route changes state through `changes.run` (the layout test holds routes to that).
 */
export function recordKeeping<T>(db: DatabasePool, work: (tx: WriteTx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as WriteTx));
}
