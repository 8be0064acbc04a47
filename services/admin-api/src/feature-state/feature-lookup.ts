import { NotFoundError, type Queryable } from '@bunting/platform';
import { featureStore, type FeatureRow } from './feature-store.ts';

export type { FeatureRow };

/**
 * The feature named in a project-scoped path. Writes lock the row so concurrent changes to one feature
 * apply one after another; archived features can be read but not changed.
 */
export async function requireFeature(
  db: Queryable,
  project: string,
  name: string,
  options: { forWrite?: boolean; allowArchived?: boolean } = {},
): Promise<FeatureRow> {
  const feature = options.forWrite ? await featureStore.lock(db, name) : await featureStore.get(db, name);
  if (!feature || feature.project !== project) {
    throw new NotFoundError(`Could not find feature flag ${name} in project ${project}`);
  }
  if (feature.archivedAt !== null && !(options.allowArchived ?? !options.forWrite)) {
    throw new NotFoundError(`Feature flag ${name} is archived`);
  }
  return feature;
}

/** A feature by name alone, for the routes Unleash keeps outside projects. */
export async function requireFeatureByName(
  db: Queryable,
  name: string,
  options: { forWrite?: boolean } = {},
): Promise<FeatureRow> {
  const feature = options.forWrite ? await featureStore.lock(db, name) : await featureStore.get(db, name);
  if (!feature) throw new NotFoundError(`Could not find feature flag ${name}`);
  return feature;
}

/** A flag by name, archived or not; null when there is none (for deciding which project a permission is checked in). */
export function findFeature(db: Queryable, name: string): Promise<FeatureRow | null> {
  return featureStore.get(db, name);
}
