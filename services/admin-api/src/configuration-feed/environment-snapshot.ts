import type { ClientFeature, EnvironmentSnapshot } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { snapshotStore } from './snapshot-store.ts';

/**
 * One environment's configuration for the SDK edge: every non-archived feature of every project that has the
 * environment, its enabled strategies (disabled ones are never sent to SDKs), variants and dependencies, and
 * every segment. With `names`, only those features (and still every segment).
 */
export async function loadEnvironmentSnapshot(
  db: Queryable,
  environment: string,
  names?: readonly string[],
): Promise<EnvironmentSnapshot> {
  const [features, strategies, dependencies, segments, tags] = await Promise.all([
    snapshotStore.features(db, environment, names),
    snapshotStore.strategies(db, environment, names),
    snapshotStore.dependencies(db, names),
    snapshotStore.segments(db),
    snapshotStore.tags(db, names),
  ]);
  const tagsByFeature = new Map<string, { type: string; value: string }[]>();
  for (const row of tags)
    tagsByFeature.set(row.featureName, [
      ...(tagsByFeature.get(row.featureName) ?? []),
      { type: row.type, value: row.value },
    ]);

  const strategiesByFeature = new Map<string, ClientFeature['strategies'] & object>();
  for (const row of strategies) {
    const list = strategiesByFeature.get(row.featureName) ?? [];
    list.push({
      id: row.id,
      name: row.name,
      title: row.title,
      sortOrder: row.sortOrder,
      constraints: row.constraints,
      parameters: row.parameters,
      segments: row.segments,
      variants: row.variants,
    });
    strategiesByFeature.set(row.featureName, list);
  }
  const dependenciesByChild = new Map<string, NonNullable<ClientFeature['dependencies']>>();
  for (const row of dependencies) {
    const list = dependenciesByChild.get(row.child) ?? [];
    list.push({
      feature: row.parent,
      enabled: row.enabled,
      ...(row.variants.length > 0 ? { variants: row.variants } : {}),
    });
    dependenciesByChild.set(row.child, list);
  }

  return {
    environment,
    features: features.map((row) => ({
      name: row.name,
      type: row.type,
      description: row.description,
      project: row.project,
      enabled: row.enabled,
      stale: row.stale,
      impressionData: row.impressionData,
      strategies: strategiesByFeature.get(row.name) ?? [],
      variants: row.variants,
      ...(dependenciesByChild.has(row.name) ? { dependencies: dependenciesByChild.get(row.name)! } : {}),
      ...(tagsByFeature.has(row.name) ? { tags: tagsByFeature.get(row.name)! } : {}),
    })),
    segments: segments.map((row) => ({ id: row.id, name: row.name, constraints: row.constraints })),
  };
}
