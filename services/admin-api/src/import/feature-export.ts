import { z } from 'zod';
import type { ExportQuery, ExportResult } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { contextFieldService } from '../context-fields/context-field-service.ts';
import { requireEnvironment } from '../environments/environment-service.ts';
import { loadFeatureViews } from '../features/feature-read-model.ts';
import { featureStore, type FeatureRow } from '../features/feature-store.ts';

const Name = z.object({ name: z.string() });
const SegmentName = z.object({ id: z.number(), name: z.string() });
const TagType = z.object({ name: z.string(), description: z.string().nullable(), icon: z.string().nullable() });

/** The flags an export covers: named ones, those of a project, or those with a tag ("type:value", or a value of any type). */
async function selectFeatures(db: Queryable, query: ExportQuery): Promise<readonly FeatureRow[]> {
  const conditions = [];
  if (query.features !== undefined) conditions.push(sql.fragment`name = any(${sql.array(query.features, 'text')})`);
  if (query.project !== undefined) conditions.push(sql.fragment`project_id = ${query.project}`);
  if (query.tag !== undefined) {
    const colon = query.tag.indexOf(':');
    const tagged = colon > 0
      ? sql.fragment`t.tag_type = ${query.tag.slice(0, colon)} and t.tag_value = ${query.tag.slice(colon + 1)}`
      : sql.fragment`t.tag_value = ${query.tag}`;
    conditions.push(sql.fragment`exists (select 1 from admin.feature_tags t where t.feature_name = admin.features.name and ${tagged})`);
  }
  const names = await db.anyFirst(sql.type(Name)`select name from admin.features
    where archived_at is null and ${sql.join(conditions, sql.fragment` and `)}`);
  return featureStore.listByNames(db, names);
}

/** Reads the export; the caller records it (features-exported) in the same transaction. */
export async function buildExport(db: Queryable, query: ExportQuery): Promise<ExportResult> {
  await requireEnvironment(db, query.environment);
  const rows = await selectFeatures(db, query);
  const views = await loadFeatureViews(db, rows, null);
  const inEnvironment = views.map((view) => ({ view, environment: view.environments.find((e) => e.name === query.environment) }));
  const strategies = inEnvironment.flatMap(({ environment }) => environment?.strategies ?? []);
  const featureTags = views.flatMap((view) => (view.tags ?? []).map((tag) => ({ featureName: view.name, tagType: tag.type, tagValue: tag.value })));

  const contextNames = new Set(strategies.flatMap((strategy) => strategy.constraints.map((constraint) => constraint.contextName)));
  const segmentIds = [...new Set(strategies.flatMap((strategy) => strategy.segments))];
  const tagTypeNames = [...new Set(featureTags.map((tag) => tag.tagType))];
  const [contextFields, segments, tagTypes] = await Promise.all([
    contextFieldService.list(db),
    db.any(sql.type(SegmentName)`select id, name from admin.segments where id = any(${sql.array(segmentIds, 'int4')}) order by id`),
    db.any(sql.type(TagType)`select name, description, icon from admin.tag_types
      where name = any(${sql.array(tagTypeNames, 'text')}) order by name`),
  ]);

  return {
    features: views.map((view) => ({
      name: view.name, type: view.type, description: view.description, project: view.project,
      stale: view.stale, impressionData: view.impressionData, archived: view.archived,
    })),
    featureStrategies: strategies,
    featureEnvironments: inEnvironment.flatMap(({ view, environment }) => environment
      ? [{ enabled: environment.enabled, featureName: view.name, environment: environment.name, variants: environment.variants, name: view.name }]
      : []),
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
