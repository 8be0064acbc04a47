import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { favoriteStore } from './favorite-store.ts';

export const featureFavoriteService = {
  async set({ tx, emit }: Change, principalKey: string, project: string, featureName: string, favorite: boolean) {
    await requireFeature(tx, project, featureName, { allowArchived: true });
    if (await favoriteStore.set(tx, principalKey, featureName, favorite)) {
      emit({
        type: favorite ? 'feature-favorited' : 'feature-unfavorited',
        project,
        featureName,
        data: { feature: featureName },
      });
    }
  },

  /** Which of the flags the principal marked as favourite. */
  favoritesAmong(db: Queryable, principalKey: string, featureNames: readonly string[]) {
    return favoriteStore.favoritesAmong(db, principalKey, featureNames);
  },
};
