import { NotFoundError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { featureTypeStore } from './feature-type-store.ts';

export const featureTypeService = {
  async list(db: Queryable) {
    return { version: 1, types: await featureTypeStore.list(db) };
  },

  async setLifetime({ tx, emit }: Change, id: string, lifetimeDays: number | null) {
    const before = await featureTypeStore.get(tx, id);
    if (!before) throw new NotFoundError(`Could not find feature type ${id}`);
    const after = { ...before, lifetimeDays };
    if (before.lifetimeDays !== lifetimeDays) {
      await featureTypeStore.setLifetime(tx, id, lifetimeDays);
      emit({ type: 'feature-type-updated', data: after, preData: before });
    }
    return after;
  },
};
