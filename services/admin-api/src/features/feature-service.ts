import type { CreateFeature, CreatedFeature, PatchOperation, UpdateFeature } from '@bunting/contracts';
import { UpdateFeature as UpdateFeatureSchema } from '@bunting/contracts';
import {
  DomainError,
  NameExistsError,
  NotFoundError,
  OperationRefused,
  ValidationError,
  type Queryable,
} from '@bunting/platform';
import { dependencyService } from '../dependencies/dependency-service.ts';
import type { Change } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { requireFeature, requireFeatureByName, type FeatureRow } from '../feature-state/feature-lookup.ts';
import { featureRows } from '../feature-state/feature-rows.ts';
import { refreshLifecycle } from '../feature-state/lifecycle.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { applyJsonPatch } from '../rules/json-patch.ts';
import { checkFlagName } from '../rules/project-rules.ts';
import { strategyService } from '../strategies/strategy-service.ts';
import { tagReadModel } from '../tags/tag-read-model.ts';
import { tagService } from '../tags/tag-service.ts';
import { loadFeatureViews } from './feature-read-model.ts';

async function checkNameFree(db: Queryable, name: string) {
  if (await featureRows.exists(db, name)) {
    throw new NameExistsError(
      `A flag with the name ${name} already exists (names are unique across projects, archived flags included)`,
    );
  }
}

async function checkProjectRules(db: Queryable, projectId: string, name: string) {
  const rules = await projectReadModel.flagRules(db, projectId);
  if (rules.archived) throw new NotFoundError(`Project ${projectId} is archived`);
  checkFlagName(rules.naming, name);
  if (rules.limit && rules.limit.activeFlags >= rules.limit.featureLimit) {
    throw new DomainError(
      409,
      'NameExistsError',
      `Project ${projectId} has reached its limit of ${rules.limit.featureLimit} feature flags`,
    );
  }
}

/** A flag other active flags depend on goes only together with them (Unleash refuses with 403). */
async function refuseOrphaning(db: Queryable, names: readonly string[]) {
  const parents = await dependencyService.parentsOfOthers(db, names);
  if (parents.length === 0) return;
  throw new OperationRefused(
    `You can not archive or delete ${parents.join(', ')}: other flags depend on ${parents.length > 1 ? 'them' : 'it'}. Remove those dependencies, or archive the flags that depend on ${parents.length > 1 ? 'them' : 'it'} together.`,
  );
}

async function applyUpdate(
  change: Change,
  before: FeatureRow,
  next: { description: string | null; type: string; impressionData: boolean; stale: boolean },
) {
  const metadataChanged =
    next.description !== before.description ||
    next.type !== before.type ||
    next.impressionData !== before.impressionData;
  const staleChanged = next.stale !== before.stale;
  if (!metadataChanged && !staleChanged) return before;
  const after = await featureRows.update(change.tx, before.name, next);
  const scope = { project: after.project, featureName: after.name };
  if (metadataChanged) {
    change.emit({
      type: 'feature-metadata-updated',
      ...scope,
      data: featureRows.eventState(after),
      preData: featureRows.eventState(before),
    });
  }
  if (staleChanged) change.emit({ type: after.stale ? 'feature-stale-on' : 'feature-stale-off', ...scope });
  return after;
}

export const featureService = {
  async validateName(db: Queryable, name: string, projectId?: string) {
    await checkNameFree(db, name);
    if (projectId) await checkProjectRules(db, projectId, name);
  },

  async create(change: Change, projectId: string, input: CreateFeature): Promise<CreatedFeature> {
    const { tx, actor, emit } = change;
    await checkProjectRules(tx, projectId, input.name);
    await checkNameFree(tx, input.name);
    const row = await featureRows.insert(tx, {
      name: input.name,
      project: projectId,
      description: input.description ?? null,
      type: input.type ?? 'release',
      impressionData: input.impressionData ?? false,
      createdByUserId: actor.createdByUserId,
      createdByName: actor.createdBy,
    });
    for (const tag of input.tags ?? []) await tagService.attach(change, row, tag, { emitTagged: false });
    emit({ type: 'feature-created', project: projectId, featureName: row.name, data: featureRows.eventState(row) });
    return featureRows.created(row);
  },

  /** A flag; an archived one only when asked for (Unleash answers 404 for it; Bunting's console shows it). */
  async get(
    db: Queryable,
    projectId: string,
    name: string,
    principalKey: string,
    options: { archived?: boolean } = {},
  ) {
    const row = await requireFeature(db, projectId, name, { allowArchived: options.archived ?? false });
    const [view] = await loadFeatureViews(db, [row], principalKey);
    return view!;
  },

  async getByName(db: Queryable, name: string, principalKey: string) {
    const row = await requireFeatureByName(db, name);
    if (row.archivedAt !== null) throw new NotFoundError(`Feature flag ${name} is archived`);
    const [view] = await loadFeatureViews(db, [row], principalKey);
    return view!;
  },

  async listInProject(db: Queryable, projectId: string, principalKey: string) {
    await projectReadModel.requireProject(db, projectId);
    const rows = await featureRows.listByProject(db, projectId, false);
    return { version: 2, features: await loadFeatureViews(db, rows, principalKey) };
  },

  async listAll(db: Queryable, principalKey: string) {
    return { version: 1, features: await loadFeatureViews(db, await featureRows.listActive(db), principalKey) };
  },

  async listArchived(db: Queryable, principalKey: string, projectId?: string) {
    const rows = projectId ? await featureRows.listByProject(db, projectId, true) : await featureRows.listArchived(db);
    return { version: 2, features: await loadFeatureViews(db, rows, principalKey) };
  },

  async update(change: Change, projectId: string, name: string, input: UpdateFeature) {
    const before = await requireFeature(change.tx, projectId, name, { forWrite: true });
    if (input.name !== undefined && input.name !== name)
      throw ValidationError.field('name', 'the name in the body must match the path');
    // A project in the body is ignored, as Unleash does: flags move between projects through their own route.
    const after = await applyUpdate(change, before, {
      description: input.description === undefined ? before.description : input.description,
      type: input.type ?? before.type,
      impressionData: input.impressionData ?? before.impressionData,
      stale: input.stale ?? before.stale,
    });
    if (input.archived === true) await featureService.archive(change, projectId, name);
    return featureService.get(change.tx, projectId, after.name, '', { archived: true });
  },

  async patch(change: Change, projectId: string, name: string, operations: readonly PatchOperation[]) {
    const before = await requireFeature(change.tx, projectId, name, { forWrite: true });
    if (operations.some((operation) => operation.path === '/variants' || operation.path.startsWith('/variants/'))) {
      throw new OperationRefused(
        `Variants are changed through PATCH /api/admin/projects/${projectId}/features/${name}/variants, not the flag's own PATCH`,
      );
    }
    const document = {
      name: before.name,
      description: before.description,
      type: before.type,
      stale: before.stale,
      impressionData: before.impressionData,
      archived: false,
      project: before.project,
    };
    const patched = UpdateFeatureSchema.safeParse(applyJsonPatch(document, operations));
    if (!patched.success) {
      const issue = patched.error.issues[0]!;
      throw ValidationError.field(issue.path.join('.') || 'patch', issue.message);
    }
    return featureService.update(change, projectId, name, patched.data);
  },

  async setStale(change: Change, projectId: string, names: readonly string[], stale: boolean) {
    for (const name of names) {
      const before = await requireFeature(change.tx, projectId, name, { forWrite: true });
      await applyUpdate(change, before, { ...before, stale });
    }
  },

  async archive(change: Change, projectId: string, name: string) {
    await featureService.archiveAll(change, projectId, [name]);
  },

  /** Archives the flags; an archived flag depends on nothing any more (its links go, as in Unleash). */
  async archiveAll(change: Change, projectId: string, names: readonly string[]) {
    await refuseOrphaning(change.tx, names);
    for (const name of names) {
      const before = await requireFeature(change.tx, projectId, name, { forWrite: true, allowArchived: true });
      if (before.archivedAt !== null) continue;
      const after = await featureRows.setArchived(change.tx, name, true);
      await refreshLifecycle(change.tx, after);
      await dependencyService.detach(change, projectId, name);
      change.emit({ type: 'feature-archived', project: projectId, featureName: name });
    }
  },

  async revive(change: Change, name: string, projectId?: string) {
    const before = projectId
      ? await requireFeature(change.tx, projectId, name, { forWrite: true, allowArchived: true })
      : await requireFeatureByName(change.tx, name, { forWrite: true });
    if (before.archivedAt === null) return;
    if (!(await projectReadModel.exists(change.tx, before.project)))
      throw new NotFoundError(`Project ${before.project} no longer exists`);
    const after = await featureRows.setArchived(change.tx, name, false);
    // A revived flag comes back switched off everywhere, as in Unleash.
    await environmentState.disableAll(change.tx, name);
    await refreshLifecycle(change.tx, after);
    change.emit({ type: 'feature-revived', project: after.project, featureName: name });
  },

  async deleteArchived(change: Change, name: string, projectId?: string) {
    await featureService.deleteArchivedAll(change, [name], projectId);
  },

  async deleteArchivedAll(change: Change, names: readonly string[], projectId?: string) {
    await refuseOrphaning(change.tx, names);
    for (const name of names) {
      const before = await featureRows.lock(change.tx, name);
      if (!before || (projectId !== undefined && before.project !== projectId))
        throw new NotFoundError(`Could not find feature flag ${name}`);
      // Unleash only deletes archived flags; deleting an active one is a no-op.
      if (before.archivedAt === null) continue;
      const tags = await tagReadModel.forFeature(change.tx, name);
      await featureRows.delete(change.tx, name);
      change.emit({
        type: 'feature-deleted',
        project: before.project,
        featureName: name,
        preData: featureRows.eventState(before),
        tags,
      });
    }
  },

  async clone(
    change: Change,
    projectId: string,
    sourceName: string,
    target: { name: string; replaceGroupId?: boolean | undefined },
  ) {
    const source = await requireFeature(change.tx, projectId, sourceName);
    const createdFeature = await featureService.create(change, projectId, {
      name: target.name,
      type: source.type as CreateFeature['type'],
      description: source.description,
      impressionData: source.impressionData,
    });
    const copy = await requireFeature(change.tx, projectId, target.name);
    await strategyService.copyAll(change, sourceName, copy, target.replaceGroupId ?? true);
    return createdFeature;
  },
};
