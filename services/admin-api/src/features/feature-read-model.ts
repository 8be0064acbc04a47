import type { Feature, FeatureEnvironment, Variant } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { dependencyReadModel } from '../dependencies/dependency-read-model.ts';
import { featureFavoriteService } from '../favorites/feature-favorite-service.ts';
import { featureLinkReadModel } from '../feature-links/feature-link-read-model.ts';
import { exposureReadModel } from '../metrics/exposure-read-model.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import type { FeatureRow } from '../feature-state/feature-lookup.ts';
import { featureRows } from '../feature-state/feature-rows.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { strategyReadModel, strategyView } from '../strategies/strategy-read-model.ts';
import { tagReadModel } from '../tags/tag-read-model.ts';
import { releasePlanReadModel } from '../release-plans/release-plan-read-model.ts';

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
export async function loadFeatureViews(
  db: Queryable,
  rows: readonly FeatureRow[],
  principalKey: string | null,
): Promise<Feature[]> {
  if (rows.length === 0) return [];
  const names = rows.map((row) => row.name);
  const projects = [...new Set(rows.map((row) => row.project))];
  const [projectEnvironments, states, strategies, tags, dependencies, favorites, links, exposures, releases] =
    await Promise.all([
      projectReadModel.environmentsOf(db, projects),
      environmentState.listFor(db, names),
      strategyReadModel.listForFeatures(db, names),
      tagReadModel.forFeatures(db, names),
      dependencyReadModel.linksOf(db, names),
      principalKey
        ? featureFavoriteService.favoritesAmong(db, principalKey, names)
        : Promise.resolve([] as readonly string[]),
      featureLinkReadModel.forFeatures(db, names),
      exposureReadModel.lastHour(db, names),
      releasePlanReadModel.forFeatures(db, names),
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
      const serving = (strategiesByKey.get(key) ?? []).map(strategyView);
      // A running milestone's strategies are listed on its plan, as Unleash lists them; they serve all the same.
      const environmentStrategies = serving.filter((strategy) => strategy.milestoneId === null);
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
        hasStrategies: serving.length > 0,
        hasEnabledStrategies: serving.some((strategy) => !strategy.disabled),
        yes: exposures.get(key)?.yes ?? 0,
        no: exposures.get(key)?.no ?? 0,
        releasePlans: releases.plansIn(row.name, environment.name),
        safeguards: releases.safeguardsIn(row.name, environment.name),
      };
    });
    const production = environments.find((environment) => environment.type === 'production');
    const lastSeen =
      environments
        .map((environment) => environment.lastSeenAt)
        .filter((value) => value !== null)
        .sort()
        .at(-1) ?? null;
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
      tags: (tagsByFeature.get(row.name) ?? []).map((tag) => ({ value: tag.value, type: tag.type, color: tag.color })),
      children: (childrenByParent.get(row.name) ?? []).map((dependency) => dependency.child),
      dependencies: (parentsByChild.get(row.name) ?? []).map((dependency) => ({
        feature: dependency.parent,
        enabled: dependency.enabled,
        ...(dependency.variants.length > 0 ? { variants: dependency.variants } : {}),
      })),
      lifecycle: { stage: row.lifecycleStage, status: row.lifecycleStatus, enteredStageAt: row.lifecycleEnteredAt },
      collaborators: { users: [{ id: row.createdByUserId ?? 0, name: row.createdByName ?? 'unknown', imageUrl: '' }] },
      links: links.get(row.name) ?? [],
    };
  });
}

/** The admin view of a project's active flags, as one caller sees them (their favourites marked). */
export async function projectFeatureViews(db: Queryable, project: string, principalKey: string): Promise<Feature[]> {
  return loadFeatureViews(db, await featureRows.listByProject(db, project, false), principalKey);
}
