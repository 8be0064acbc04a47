import { z } from 'zod';
import type { Feature, FeatureEnvironment, Variant } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { featureEnvironmentStore, type FeatureRow } from './feature-store.ts';
import { strategyStore, strategyView } from '../strategies/strategy-store.ts';

const ProjectEnvironmentRow = z.object({
  project: z.string(),
  name: z.string(),
  type: z.string(),
  sortOrder: z.number(),
});
const TagRow = z.object({ featureName: z.string(), type: z.string(), value: z.string() });
const DependencyRow = z.object({ child: z.string(), parent: z.string(), enabled: z.boolean(), variants: z.array(z.string()) });

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const list = groups.get(key(item)) ?? [];
    list.push(item);
    groups.set(key(item), list);
  }
  return groups;
}

/** Builds the admin view of features in a handful of queries, whatever their number. */
export async function loadFeatureViews(db: Queryable, rows: readonly FeatureRow[], principalKey: string | null): Promise<Feature[]> {
  if (rows.length === 0) return [];
  const names = rows.map((row) => row.name);
  const projects = [...new Set(rows.map((row) => row.project))];
  const [projectEnvironments, states, strategies, tags, dependencies, favorites] = await Promise.all([
    db.any(sql.type(ProjectEnvironmentRow)`
      select pe.project_id as project, e.name, e.type, e.sort_order as "sortOrder"
      from admin.project_environments pe join admin.environments e on e.name = pe.environment
      where pe.project_id = any(${sql.array(projects, 'text')}) order by e.sort_order, e.name`),
    featureEnvironmentStore.listFor(db, names),
    strategyStore.listForFeatures(db, names),
    db.any(sql.type(TagRow)`
      select feature_name as "featureName", tag_type as type, tag_value as value from admin.feature_tags
      where feature_name = any(${sql.array(names, 'text')}) order by created_at, tag_type, tag_value`),
    db.any(sql.type(DependencyRow)`
      select child, parent, enabled, variants from admin.dependencies
      where child = any(${sql.array(names, 'text')}) or parent = any(${sql.array(names, 'text')}) order by parent, child`),
    principalKey
      ? db.anyFirst(sql.type(z.object({ name: z.string() }))`
          select feature_name as name from admin.favorite_features
          where principal = ${principalKey} and feature_name = any(${sql.array(names, 'text')})`)
      : Promise.resolve([] as readonly string[]),
  ]);
  const environmentsByProject = groupBy(projectEnvironments, (row) => row.project);
  const stateByKey = new Map(states.map((state) => [`${state.featureName}\u0000${state.environment}`, state]));
  const strategiesByKey = groupBy(strategies, (row) => `${row.featureName}\u0000${row.environment}`);
  const tagsByFeature = groupBy(tags, (row) => row.featureName);
  const parentsByChild = groupBy(dependencies, (row) => row.child);
  const childrenByParent = groupBy(dependencies, (row) => row.parent);
  const favoriteSet = new Set(favorites);

  return rows.map((row) => {
    const environments: FeatureEnvironment[] = (environmentsByProject.get(row.project) ?? []).map((environment) => {
      const key = `${row.name}\u0000${environment.name}`;
      const state = stateByKey.get(key);
      const environmentStrategies = (strategiesByKey.get(key) ?? []).map(strategyView);
      const variants = (state?.variants ?? []) as Variant[];
      return {
        name: environment.name,
        featureName: row.name,
        environment: environment.name,
        type: environment.type,
        enabled: state?.enabled ?? false,
        sortOrder: environment.sortOrder,
        variantCount: variants.length,
        strategies: environmentStrategies,
        variants,
        lastSeenAt: state?.lastSeenAt ?? null,
        hasStrategies: environmentStrategies.length > 0,
        hasEnabledStrategies: environmentStrategies.some((strategy) => !strategy.disabled),
      };
    });
    const production = environments.find((environment) => environment.type === 'production');
    const lastSeen = environments.map((environment) => environment.lastSeenAt).filter((value) => value !== null).sort().at(-1) ?? null;
    return {
      name: row.name,
      type: row.type,
      description: row.description,
      archived: row.archivedAt !== null,
      project: row.project,
      enabled: false,
      stale: row.stale,
      favorite: favoriteSet.has(row.name),
      impressionData: row.impressionData,
      createdAt: row.createdAt,
      createdBy: { id: row.createdByUserId ?? 0, name: row.createdByName ?? 'unknown', imageUrl: '' },
      archivedAt: row.archivedAt,
      lastSeenAt: lastSeen,
      environments,
      variants: production?.variants ?? [],
      strategies: [],
      tags: (tagsByFeature.get(row.name) ?? []).map((tag) => ({ value: tag.value, type: tag.type })),
      children: (childrenByParent.get(row.name) ?? []).map((dependency) => dependency.child),
      dependencies: (parentsByChild.get(row.name) ?? []).map((dependency) => ({
        feature: dependency.parent,
        enabled: dependency.enabled,
        ...(dependency.variants.length > 0 ? { variants: dependency.variants } : {}),
      })),
      lifecycle: { stage: row.lifecycleStage, enteredStageAt: row.lifecycleEnteredAt },
      collaborators: { users: [{ id: row.createdByUserId ?? 0, name: row.createdByName ?? 'unknown', imageUrl: '' }] },
    };
  });
}
