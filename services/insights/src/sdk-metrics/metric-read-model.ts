import type { Queryable } from '@bunting/platform';
import { metricStore } from './metric-store.ts';

/** What the rest of insights may ask of SDK metrics: a flag's exposures, for guardrails and experiments. */
export const metricReadModel = {
  exposuresSince: (db: Queryable, featureName: string, environment: string, since: string) =>
    metricStore.exposuresSince(db, featureName, environment, since),
  variantExposures: (db: Queryable, featureName: string, environment: string, since: string) =>
    metricStore.variantExposures(db, featureName, environment, since),
};
