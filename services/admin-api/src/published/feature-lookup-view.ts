import { FeatureLookupView } from '@bunting/contracts';
import { answerView, type Messaging, type Queryable } from '@bunting/platform';
import { findFeature } from '../feature-state/feature-lookup.ts';

/** Answers other services asking where a flag is (insights, for the charts it keeps per flag). */
export function answerFeatureLookupView(messaging: Messaging, db: Queryable) {
  return answerView(messaging, FeatureLookupView, async ({ featureName }) => {
    const feature = await findFeature(db, featureName);
    return feature ? { project: feature.project, archived: feature.archivedAt !== null } : null;
  });
}
