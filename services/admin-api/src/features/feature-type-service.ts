import { z } from 'zod';
import { NotFoundError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

const FeatureTypeRow = z.object({ id: z.string(), name: z.string(), description: z.string(), lifetimeDays: z.number().nullable() });

export const featureTypeService = {
  async list(db: Queryable) {
    const types = await db.any(sql.type(FeatureTypeRow)`
      select id, name, description, lifetime_days as "lifetimeDays" from admin.feature_types order by id`);
    return { version: 1, types };
  },

  async setLifetime({ tx, emit }: Change, id: string, lifetimeDays: number | null) {
    const before = await tx.maybeOne(sql.type(FeatureTypeRow)`
      select id, name, description, lifetime_days as "lifetimeDays" from admin.feature_types where id = ${id}`);
    if (!before) throw new NotFoundError(`Could not find feature type ${id}`);
    const after = { ...before, lifetimeDays };
    if (before.lifetimeDays !== lifetimeDays) {
      await tx.query(sql.unsafe`update admin.feature_types set lifetime_days = ${lifetimeDays} where id = ${id}`);
      emit({ type: 'feature-type-updated', data: after, preData: before });
    }
    return after;
  },
};
