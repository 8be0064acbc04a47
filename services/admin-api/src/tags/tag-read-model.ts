import type { Queryable } from '@bunting/platform';
import { tagStore } from './tag-store.ts';

/** What the rest of admin-api may ask of tags. */
export const tagReadModel = {
  /** A flag's tags, in the order they were attached. */
  forFeature: (db: Queryable, featureName: string) => tagStore.forFeature(db, featureName),
  forFeatures: (db: Queryable, featureNames: readonly string[]) => tagStore.forFeatures(db, featureNames),
};
