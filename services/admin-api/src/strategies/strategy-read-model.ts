import type { Queryable } from '@bunting/platform';
import { strategyStore, strategyView } from './strategy-store.ts';

export { strategyView };

/** What the rest of admin-api may ask of flags' strategies. */
export const strategyReadModel = {
  /** Every strategy of the flags, each environment's in their order. */
  listForFeatures: (db: Queryable, featureNames: readonly string[]) => strategyStore.listForFeatures(db, featureNames),
};
