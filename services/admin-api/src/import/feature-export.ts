import type { ExportQuery, ExportResult } from '@bunting/contracts';
import { NotFoundError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { contextFieldService } from '../context-fields/context-field-service.ts';
import { environmentReadModel } from '../environments/environment-read-model.ts';
import { featureRows } from '../feature-state/feature-rows.ts';
import type { FeatureRow } from '../feature-state/feature-lookup.ts';
import { loadFeatureViews } from '../features/feature-read-model.ts';
import { importStore } from './import-store.ts';

async function selectFeatures(db: Queryable, query: ExportQuery): Promise<readonly FeatureRow[]> {
  return featureRows.listByNames(db, await importStore.exportedNames(db, query));
}

/** Reads the export; the caller records it (features-exported) in the same transaction. */
export async function buildExport(db: Queryable, query: ExportQuery): Promise<ExportResult> {
  if (!(await environmentReadModel.exists(db, query.environment)))
    throw new NotFoundError(`Could not find environment with name ${query.environment}`);
  const rows = await selectFeatures(db, query);
  const views = await loadFeatureViews(db, rows, null);
  const inEnvironment = views.map((view) => ({
    view,
    environment: view.environments.find((e) => e.name === query.environment),
  }));
  const strategies = inEnvironment.flatMap(({ environment }) => environment?.strategies ?? []);
  const featureTags = views.flatMap((view) =>
    (view.tags ?? []).map((tag) => ({ featureName: view.name, tagType: tag.type, tagValue: tag.value })),
  );

  const contextNames = new Set(
    strategies.flatMap((strategy) => strategy.constraints.map((constraint) => constraint.contextName)),
  );
  const segmentIds = [...new Set(strategies.flatMap((strategy) => strategy.segments))];
  const tagTypeNames = [...new Set(featureTags.map((tag) => tag.tagType))];
  const [contextFields, segments, tagTypes] = await Promise.all([
    contextFieldService.list(db),
    importStore.segmentsByIds(db, segmentIds),
    importStore.tagTypes(db, tagTypeNames),
  ]);

  return {
    features: views.map((view) => ({
      name: view.name,
      type: view.type,
      description: view.description,
      project: view.project,
      stale: view.stale,
      impressionData: view.impressionData,
      archived: view.archived,
    })),
    featureStrategies: strategies,
    featureEnvironments: inEnvironment.flatMap(({ view, environment }) =>
      environment
        ? [
            {
              enabled: environment.enabled,
              featureName: view.name,
              environment: environment.name,
              variants: environment.variants,
              name: view.name,
            },
          ]
        : [],
    ),
    contextFields: contextFields
      .filter((field) => contextNames.has(field.name))
      .map(({ createdAt: _createdAt, usedInFeatures: _features, usedInProjects: _projects, ...field }) => field),
    featureTags,
    segments: [...segments],
    tagTypes: [...tagTypes],
    dependencies: views
      .filter((view) => view.dependencies.length > 0)
      .map((view) => ({ feature: view.name, dependencies: view.dependencies })),
  };
}

export async function exportFeatures(change: Change, query: ExportQuery): Promise<ExportResult> {
  const result = await buildExport(change.tx, query);
  change.emit({
    type: 'features-exported',
    environment: query.environment,
    data: { features: result.features.map((feature) => feature.name), environment: query.environment },
  });
  return result;
}
