import { z } from 'zod';
import {
  CreateContextField,
  CreateDependency,
  CreateFeatureStrategy,
  CreateTag,
  FeatureName,
  FeatureType,
  VariantInput,
  type ImportToggles,
  type Principal,
} from '@bunting/contracts';
import { NoAccessError, ValidationError } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { contextFieldService } from '../context-fields/context-field-service.ts';
import { dependencyService } from '../dependencies/dependency-service.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { featureEnvironmentService } from '../features/feature-environment-service.ts';
import { featureService } from '../features/feature-service.ts';
import { strategyService } from '../strategies/strategy-service.ts';
import { tagService } from '../tags/tag-service.ts';
import { variantService } from '../variants/variant-service.ts';
import { importStore } from './import-store.ts';
import { validateImport } from './import-validation.ts';

const ImportedFeature = z.object({
  name: FeatureName,
  type: FeatureType.optional(),
  description: z.string().max(2000).nullable().optional(),
  impressionData: z.boolean().optional(),
});
const ImportedStrategy = CreateFeatureStrategy.extend({ featureName: z.string() });
const ImportedEnvironment = z.object({
  featureName: z.string().optional(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  variants: z.array(VariantInput).max(1000).optional(),
});
const ImportedTag = z.object({ featureName: z.string(), tagType: z.string().optional(), tagValue: z.string() });
const ImportedTagType = z.object({
  name: CreateTag.shape.type,
  description: z.string().max(1000).nullable().optional(),
  icon: z.string().max(100).nullable().optional(),
});
const ImportedDependencies = z.object({ feature: z.string(), dependencies: z.array(CreateDependency).max(100) });

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

/** Every record checked against what the admin API itself accepts, the first bad field named with its place in `data`. */
function parseAll<S extends z.ZodType>(schema: S, records: readonly unknown[] | undefined, path: string): z.infer<S>[] {
  return (records ?? []).map((record, index) => {
    const parsed = schema.safeParse(record);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw ValidationError.field([`data.${path}`, index, ...issue.path].join('.'), issue.message);
  });
}

/**
 * Imports an export into a project and one of its environments, in one transaction: context fields and tag types
 * it needs, the flags (created, or updated when they are already in the project), their strategies in the
 * environment (replacing those there), variants, tags, dependencies and enabled state, then features-imported.
 * Refused whole when validation finds errors (400) or the caller lacks a permission it needs (403).
 */
export async function importFeatures(change: Change, principal: Principal, input: ImportToggles): Promise<void> {
  const { tx } = change;
  const { project, environment, data } = input;
  const features = parseAll(ImportedFeature, data.features, 'features');
  const strategies = parseAll(ImportedStrategy, data.featureStrategies, 'featureStrategies');
  const featureEnvironments = parseAll(ImportedEnvironment, data.featureEnvironments, 'featureEnvironments');
  const contextFields = parseAll(CreateContextField, data.contextFields, 'contextFields');
  const featureTags = parseAll(ImportedTag, data.featureTags, 'featureTags');
  const tagTypes = parseAll(ImportedTagType, data.tagTypes, 'tagTypes');
  const dependencies = parseAll(ImportedDependencies, data.dependencies, 'dependencies');

  const verdict = await validateImport(tx, principal, input);
  if (verdict.errors.length > 0) {
    throw new ValidationError(
      `The import cannot be done: ${verdict.errors.map((error) => `${error.message} ${error.affectedItems.join(', ')}`).join(' ')}`,
      verdict.errors.map((error) => ({ path: 'data', message: `${error.message} ${error.affectedItems.join(', ')}` })),
    );
  }
  const lacking = verdict.permissions[0]?.affectedItems[0];
  if (lacking) throw new NoAccessError(lacking, environment);

  const knownFields = new Set(
    (
      await importStore.contextFields(
        tx,
        contextFields.map((field) => field.name),
      )
    ).map((field) => field.name),
  );
  for (const field of contextFields) {
    if (knownFields.has(field.name)) continue;
    await contextFieldService.create(change, { ...field, project: undefined });
    knownFields.add(field.name);
  }
  const knownTagTypes = new Set(
    (
      await importStore.tagTypes(
        tx,
        tagTypes.map((tagType) => tagType.name),
      )
    ).map((tagType) => tagType.name),
  );
  for (const tagType of tagTypes) {
    if (knownTagTypes.has(tagType.name)) continue;
    await tagService.createTagType(change, {
      name: tagType.name,
      description: tagType.description ?? undefined,
      icon: tagType.icon ?? null,
    });
    knownTagTypes.add(tagType.name);
  }

  const segmentNames = new Map((data.segments ?? []).map((segment) => [segment.id, segment.name ?? '']));
  const segmentIds = new Map(
    (await importStore.segmentsByNames(tx, [...segmentNames.values()])).map((row) => [row.name, row.id]),
  );

  // Grouped by flag once: an export of thousands of flags would otherwise be searched whole for each of them.
  const strategiesOf = groupBy(strategies, (strategy) => strategy.featureName);
  const tagsOf = groupBy(featureTags, (tag) => tag.featureName);
  const stateOf = new Map(featureEnvironments.map((entry) => [entry.featureName ?? entry.name, entry]));
  // Which flags exist, asked once; a flag created here has no strategies to replace and needs its row only for tags.
  const existing = new Set(
    (
      await importStore.features(
        tx,
        features.map((feature) => feature.name),
      )
    ).map((row) => row.name),
  );
  for (const feature of features) {
    const path = { project, feature: feature.name, environment };
    if (existing.has(feature.name)) {
      await featureService.update(change, project, feature.name, {
        type: feature.type,
        description: feature.description,
        impressionData: feature.impressionData,
      });
      for (const current of await strategyService.list(tx, path))
        await strategyService.remove(change, path, current.id);
    } else {
      await featureService.create(change, project, feature);
    }
    for (const strategy of strategiesOf.get(feature.name) ?? []) {
      const { featureName: _featureName, ...definition } = strategy;
      const segments = (definition.segments ?? []).map((id) => segmentIds.get(segmentNames.get(id) ?? '')!);
      await strategyService.add(change, path, { ...definition, segments });
    }
    const state = stateOf.get(feature.name);
    if (state?.variants) await variantService.put(change, project, feature.name, environment, state.variants);
    const tags = tagsOf.get(feature.name) ?? [];
    if (tags.length > 0) {
      const row = await requireFeature(tx, project, feature.name, { forWrite: true });
      for (const tag of tags)
        await tagService.attach(change, row, { type: tag.tagType ?? 'simple', value: tag.tagValue });
    }
  }
  // Parents may be imported after their children, so dependencies come once every flag exists.
  for (const entry of dependencies) {
    await dependencyService.removeAll(change, project, entry.feature);
    for (const parent of entry.dependencies) await dependencyService.add(change, project, entry.feature, parent);
  }
  for (const state of featureEnvironments) {
    const name = state.featureName ?? state.name;
    if (name === undefined || state.enabled === undefined) continue;
    await featureEnvironmentService.setEnabled(change, project, name, environment, state.enabled);
  }
  change.emit({
    type: 'features-imported',
    project,
    environment,
    data: { features: features.map((feature) => feature.name), environment },
  });
}
