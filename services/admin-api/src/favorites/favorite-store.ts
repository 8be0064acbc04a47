import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

/** Which flags each principal marked as favourite. */
export const favoriteStore = {
  /** Whether the mark changed. */
  async set(db: WriteTx, principalKey: string, featureName: string, favorite: boolean): Promise<boolean> {
    const changed = favorite
      ? await db.query(sql.unsafe`insert into admin.favorite_features (principal, feature_name) values (${principalKey}, ${featureName})
          on conflict do nothing`)
      : await db.query(
          sql.unsafe`delete from admin.favorite_features where principal = ${principalKey} and feature_name = ${featureName}`,
        );
    return changed.rowCount > 0;
  },
  favoritesAmong(db: Queryable, principalKey: string, featureNames: readonly string[]) {
    return db.anyFirst(sql.type(z.object({ name: z.string() }))`
      select feature_name as name from admin.favorite_features
      where principal = ${principalKey} and feature_name = any(${sql.array(featureNames, 'text')})`);
  },
};
