import type { ImportToggles, ImportValidateItem, ImportValidateResult, Principal } from '@bunting/contracts';
import { NotFoundError, Permission, ValidationError, hasPermission, type Queryable } from '@bunting/platform';
import { environmentReadModel } from '../environments/environment-read-model.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { checkFlagName } from '../rules/project-rules.ts';
import { importStore } from './import-store.ts';

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

function item(message: string, affectedItems: string[]): ImportValidateItem[] {
  return affectedItems.length > 0 ? [{ message, affectedItems }] : [];
}

function breaksNaming(naming: Parameters<typeof checkFlagName>[0], name: string): boolean {
  try {
    checkFlagName(naming, name);
    return false;
  } catch (error) {
    if (error instanceof ValidationError) return true;
    throw error;
  }
}

/**
 * Whether import data can be imported into its project and environment, without changing anything: errors
 * that would stop the import, warnings about what it would overwrite or rely on, and the permissions the caller
 * lacks for it. Answers 404 only for a project that does not exist; everything else is reported in the body.
 */
export async function validateImport(
  db: Queryable,
  principal: Principal,
  input: ImportToggles,
): Promise<ImportValidateResult> {
  const { project: projectId, environment, data } = input;
  const project = (await projectReadModel.exists(db, projectId))
    ? await projectReadModel.flagRules(db, projectId)
    : null;
  if (!project || project.archived) throw new NotFoundError(`Could not find project ${projectId}`);

  const names = data.features.map((feature) => feature.name);
  const strategyNames = unique(data.featureStrategies.map((strategy) => strategy.name));
  const contextFields = data.contextFields ?? [];
  const segmentNames = unique((data.segments ?? []).flatMap((segment) => (segment.name ? [segment.name] : [])));
  const tagTypeNames = unique([
    ...data.tagTypes.map((tagType) => tagType.name),
    ...(data.featureTags ?? []).flatMap((tag) => (tag.tagType ? [tag.tagType] : [])),
  ]);

  const [environmentExists, existing, strategies, knownContextFields, knownSegments, knownTagTypes] = await Promise.all(
    [
      environmentReadModel.exists(db, environment),
      importStore.features(db, names),
      importStore.strategyDefinitions(db, strategyNames),
      importStore.contextFields(
        db,
        contextFields.map((field) => field.name),
      ),
      importStore.segmentsByNames(db, segmentNames),
      importStore.tagTypes(db, tagTypeNames),
    ],
  );

  const byName = new Map(existing.map((feature) => [feature.name, feature]));
  const inOtherProjects = existing.filter((feature) => feature.project !== projectId);
  const archivedHere = existing.filter((feature) => feature.project === projectId && feature.archived);
  const activeHere = existing.filter((feature) => feature.project === projectId && !feature.archived);
  const newNames = unique(names.filter((name) => !byName.has(name)));
  const seen = new Set<string>();
  const duplicates = unique(names.filter((name) => (seen.has(name) ? true : (seen.add(name), false))));

  const definitions = new Map(strategies.map((strategy) => [strategy.name, strategy]));
  const unknownStrategies = strategyNames.filter((name) => !definitions.has(name));
  const customStrategies = strategyNames.filter((name) => definitions.get(name)?.builtIn === false);

  const knownFields = new Map(
    knownContextFields.map((field) => [field.name, new Set(field.legalValues.map((legal) => legal.value))]),
  );
  const conflictingFields = unique(
    contextFields
      .filter((field) => {
        const legal = knownFields.get(field.name);
        // A field without legal values takes any value; one with them must already allow every imported value.
        if (!legal || legal.size === 0) return false;
        return (field.legalValues ?? []).some((value) => !legal.has(value.value));
      })
      .map((field) => field.name),
  );
  const newContextFields = unique(
    contextFields.filter((field) => !knownFields.has(field.name)).map((field) => field.name),
  );

  const existingSegments = new Set(knownSegments.map((segment) => segment.name));
  const missingSegments = segmentNames.filter((name) => !existingSegments.has(name));
  const referencedSegmentIds = new Set(data.featureStrategies.flatMap((strategy) => strategy.segments ?? []));
  const describedSegmentIds = new Set((data.segments ?? []).map((segment) => segment.id));
  const undescribedSegments = unique(
    [...referencedSegmentIds].filter((id) => !describedSegmentIds.has(id)).map(String),
  );

  const importedNames = new Set(names);
  const activeNames = new Set(activeHere.map((feature) => feature.name));
  const parentNames = unique(
    (data.dependencies ?? []).flatMap((entry) => entry.dependencies.map((parent) => parent.feature)),
  );
  const parentsHere = parentNames.length === 0 ? [] : await importStore.activeFlagsAmong(db, projectId, parentNames);
  const knownParents = new Set([...importedNames, ...activeNames, ...parentsHere]);
  const missingParents = parentNames.filter((name) => !knownParents.has(name));

  const badlyNamed = unique(newNames.filter((name) => breaksNaming(project.naming, name)));
  const overLimit = project.limit !== null && project.limit.activeFlags + newNames.length > project.limit.featureLimit;

  const errors: ImportValidateItem[] = [
    ...item(
      `The environment ${environment} does not exist; create it before importing into it:`,
      environmentExists ? [] : [environment],
    ),
    ...item(
      `These flags already exist in another project and cannot be imported into ${projectId}:`,
      inOtherProjects.map((feature) => `${feature.name} (in project ${feature.project})`),
    ),
    ...item(
      'These flags are archived in this project; revive them before importing:',
      archivedHere.map((feature) => feature.name),
    ),
    ...item('These flag names appear more than once in the import data:', duplicates),
    ...item('These strategy types are not defined on this instance; create them before importing:', unknownStrategies),
    ...item(
      'These context fields already exist with legal values that do not include every imported value:',
      conflictingFields,
    ),
    ...item('These segments do not exist on this instance; create them before importing:', missingSegments),
    ...item('Strategies refer to these segment ids, which the import data does not describe:', undescribedSegments),
    ...item('These dependencies name parent flags that are neither imported nor in the project:', missingParents),
    ...item(`These flag names do not match the project's naming pattern ${project.naming.pattern ?? ''}:`, badlyNamed),
    ...item(
      `Importing would exceed the project's limit of ${project.limit?.featureLimit ?? 0} flags; these flags would be new:`,
      overLimit ? newNames : [],
    ),
  ];
  const warnings: ImportValidateItem[] = [
    ...item(
      'These flags already exist in the project; the import replaces their configuration in the environment:',
      activeHere.map((feature) => feature.name).sort(),
    ),
    ...item(
      'These custom strategy types are used; check their parameters match the source instance:',
      customStrategies,
    ),
  ];

  const scope = { project: projectId, environment };
  const featureEnvironments = data.featureEnvironments ?? [];
  const needed: [string, boolean][] = [
    [Permission.CREATE_FEATURE, newNames.length > 0],
    [Permission.UPDATE_FEATURE, activeHere.length > 0 || (data.featureTags ?? []).length > 0],
    [Permission.CREATE_FEATURE_STRATEGY, data.featureStrategies.length > 0],
    [Permission.DELETE_FEATURE_STRATEGY, activeHere.length > 0],
    [Permission.UPDATE_FEATURE_ENVIRONMENT, featureEnvironments.some((entry) => entry.enabled !== undefined)],
    [
      Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS,
      featureEnvironments.some((entry) => (entry.variants ?? []).length > 0),
    ],
    [Permission.UPDATE_FEATURE_DEPENDENCY, (data.dependencies ?? []).length > 0],
    [Permission.CREATE_CONTEXT_FIELD, newContextFields.length > 0],
    [Permission.CREATE_TAG_TYPE, tagTypeNames.length > knownTagTypes.length],
  ];
  const missing = needed
    .filter(([permission, wanted]) => wanted && !hasPermission(principal, permission, scope))
    .map(([permission]) => permission);
  const permissions = item(`You lack these permissions for this import into ${projectId} (${environment}):`, missing);

  return { errors, warnings, permissions };
}
