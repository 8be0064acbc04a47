import type { Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';
import { featureEnvironmentStore } from './feature-store.ts';

/**
 * A flag's state per environment (on or off, its variants, when SDKs last reported it), which strategies and variants
 * change besides the flag's own routes. Callers emit the events.
 */
export const environmentState = {
  get: (db: Queryable, featureName: string, environment: string) =>
    featureEnvironmentStore.get(db, featureName, environment),
  listFor: (db: Queryable, featureNames: readonly string[]) => featureEnvironmentStore.listFor(db, featureNames),
  setEnabled: (db: WriteTx, featureName: string, environment: string, enabled: boolean) =>
    featureEnvironmentStore.setEnabled(db, featureName, environment, enabled),
  setVariants: (db: WriteTx, featureName: string, environment: string, variants: unknown[]) =>
    featureEnvironmentStore.setVariants(db, featureName, environment, variants),
  /** A revived flag comes back switched off everywhere. */
  disableAll: (db: WriteTx, featureName: string) => featureEnvironmentStore.disableAll(db, featureName),
  /** When SDKs last reported the flags in an environment. */
  markSeen: (db: WriteTx, environment: string, names: readonly string[], seenAt: string) =>
    featureEnvironmentStore.markSeen(db, environment, names, seenAt),
  /** Every flag's state in one environment copied into a new one (cloning an environment). */
  copyEnvironment: (db: WriteTx, source: string, target: string, projects: readonly string[] | undefined) =>
    featureEnvironmentStore.copyEnvironment(db, source, target, projects),
};
