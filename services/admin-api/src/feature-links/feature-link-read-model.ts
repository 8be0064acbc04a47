import type { Queryable } from '@bunting/platform';
import { featureLinkStore, type FeatureLinkRow } from './feature-link-store.ts';

/** What the rest of admin-api may ask of flag links: each flag's links, oldest first. */
export const featureLinkReadModel = {
  async forFeatures(db: Queryable, names: readonly string[]): Promise<Map<string, FeatureLinkRow[]>> {
    const byFeature = new Map<string, FeatureLinkRow[]>();
    if (names.length === 0) return byFeature;
    for (const link of await featureLinkStore.forFeatures(db, names))
      byFeature.set(link.feature, [...(byFeature.get(link.feature) ?? []), link]);
    return byFeature;
  },
};
