import { sql } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireFeature } from '../features/feature-lookup.ts';

export const featureFavoriteService = {
  async set({ tx, emit }: Change, principalKey: string, project: string, featureName: string, favorite: boolean) {
    await requireFeature(tx, project, featureName, { allowArchived: true });
    const changed = favorite
      ? await tx.query(sql.unsafe`insert into admin.favorite_features (principal, feature_name) values (${principalKey}, ${featureName})
          on conflict do nothing`)
      : await tx.query(sql.unsafe`delete from admin.favorite_features where principal = ${principalKey} and feature_name = ${featureName}`);
    if (changed.rowCount > 0) {
      emit({ type: favorite ? 'feature-favorited' : 'feature-unfavorited', project, featureName, data: { feature: featureName } });
    }
  },
};
