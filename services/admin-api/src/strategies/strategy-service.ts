import { randomUUID } from 'node:crypto';
import type { WriteTx } from '../events/write-tx.ts';
import { CreateFeatureStrategy, type PatchOperation, type StoredMilestoneStrategy } from '@bunting/contracts';
import { ConflictError, NotFoundError, OperationRefused, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { findFeature, requireFeature, type FeatureRow } from '../feature-state/feature-lookup.ts';
import { refreshLifecycle } from '../feature-state/lifecycle.ts';
import { requireProjectEnvironment, requireProjectSettings, projectReadModel } from '../projects/project-read-model.ts';
import { applyJsonPatch } from '../rules/json-patch.ts';
import { normalizeStrategy } from '../rules/strategy-rules.ts';
import { strategyStore, strategyView, type StrategyRow } from './strategy-store.ts';

export type StrategyPath = { project: string; feature: string; environment: string };

async function requireStrategy(db: Queryable, path: StrategyPath, id: string): Promise<StrategyRow> {
  const strategy = await strategyStore.get(db, id);
  if (!strategy || strategy.featureName !== path.feature || strategy.environment !== path.environment) {
    throw new NotFoundError(`Could not find strategy ${id} for ${path.feature} in ${path.environment}`);
  }
  return strategy;
}

/**
 * A strategy about to be changed or removed, addressed through its own project, flag and environment: another
 * project, flag or environment in the path is a refused operation (403), as in Unleash; an unknown id is 404.
 */
async function requireStrategyAt(db: Queryable, path: StrategyPath, id: string): Promise<StrategyRow> {
  const strategy = await strategyStore.get(db, id);
  if (!strategy) throw new NotFoundError(`Could not find strategy ${id}`);
  const owner = await findFeature(db, strategy.featureName);
  if (owner?.project !== path.project)
    throw new OperationRefused(
      `Strategy ${id} is not in project ${path.project}: a strategy cannot change its project`,
    );
  if (strategy.featureName !== path.feature)
    throw new OperationRefused(`Strategy ${id} belongs to ${strategy.featureName}: a strategy cannot change its flag`);
  if (strategy.environment !== path.environment)
    throw new OperationRefused(
      `Strategy ${id} is in ${strategy.environment}: a strategy cannot change its environment`,
    );
  return strategy;
}

/** A strategy goes only into an environment the flag's project has (Unleash: 400). */
async function requireStrategyEnvironment(db: Queryable, path: StrategyPath) {
  if (!(await projectReadModel.hasEnvironment(db, path.project, path.environment))) {
    throw ValidationError.field(
      'environment',
      `environment ${path.environment} is not added to project ${path.project}`,
    );
  }
}

function scope(feature: FeatureRow, environment: string) {
  return { project: feature.project, featureName: feature.name, environment };
}

/** An environment with no enabled strategy left cannot stay on: Unleash switches it off. */
async function disableIfNoEnabledStrategies(change: Change, feature: FeatureRow, environment: string) {
  const remaining = await strategyStore.listFor(change.tx, feature.name, environment);
  if (remaining.some((strategy) => !strategy.disabled)) return;
  const state = await environmentState.get(change.tx, feature.name, environment);
  if (!state?.enabled) return;
  await environmentState.setEnabled(change.tx, feature.name, environment, false);
  change.emit({ type: 'feature-environment-disabled', ...scope(feature, environment) });
  await refreshLifecycle(change.tx, feature);
}

export const strategyService = {
  /** Every strategy of one environment copied into a new one (cloning an environment). */
  copyEnvironment: (db: WriteTx, source: string, target: string, projects: readonly string[] | undefined) =>
    strategyStore.copyEnvironment(db, source, target, projects),

  async list(db: Queryable, path: StrategyPath) {
    await requireFeature(db, path.project, path.feature, { allowArchived: true });
    await requireProjectEnvironment(db, path.project, path.environment);
    return (await strategyStore.listOwn(db, path.feature, path.environment)).map(strategyView);
  },

  async get(db: Queryable, path: StrategyPath, id: string) {
    await requireFeature(db, path.project, path.feature, { allowArchived: true });
    return strategyView(await requireStrategy(db, path, id));
  },

  async add(change: Change, path: StrategyPath, input: CreateFeatureStrategy) {
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    await requireStrategyEnvironment(change.tx, path);
    const project = await requireProjectSettings(change.tx, path.project);
    const strategy = await normalizeStrategy(change.tx, input, {
      featureName: feature.name,
      defaultStickiness: project.defaultStickiness,
      sortOrder: await strategyStore.nextSortOrder(change.tx, feature.name, path.environment),
    });
    const id = randomUUID();
    await strategyStore.insert(change.tx, id, feature.name, path.environment, strategy);
    const view = strategyView((await strategyStore.get(change.tx, id))!);
    change.emit({ type: 'feature-strategy-add', ...scope(feature, path.environment), data: view });
    return view;
  },

  async update(change: Change, path: StrategyPath, id: string, input: CreateFeatureStrategy) {
    await requireStrategyAt(change.tx, path, id);
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    const before = await requireStrategy(change.tx, path, id);
    const project = await requireProjectSettings(change.tx, path.project);
    const strategy = await normalizeStrategy(
      change.tx,
      { ...input, sortOrder: input.sortOrder ?? before.sortOrder },
      {
        featureName: feature.name,
        defaultStickiness: project.defaultStickiness,
        sortOrder: before.sortOrder,
      },
    );
    await strategyStore.update(change.tx, id, strategy);
    const after = strategyView((await strategyStore.get(change.tx, id))!);
    const previous = strategyView(before);
    if (JSON.stringify(after) !== JSON.stringify(previous)) {
      change.emit({
        type: 'feature-strategy-update',
        ...scope(feature, path.environment),
        data: after,
        preData: previous,
      });
    }
    if (strategy.disabled) await disableIfNoEnabledStrategies(change, feature, path.environment);
    return after;
  },

  async patch(change: Change, path: StrategyPath, id: string, operations: readonly PatchOperation[]) {
    const before = await requireStrategyAt(change.tx, path, id);
    const { id: _id, featureName: _feature, ...editable } = strategyView(before);
    const parsed = CreateFeatureStrategy.safeParse(applyJsonPatch(editable, operations));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw ValidationError.field(issue.path.join('.') || 'patch', issue.message);
    }
    return strategyService.update(change, path, id, parsed.data);
  },

  async remove(change: Change, path: StrategyPath, id: string) {
    await requireStrategyAt(change.tx, path, id);
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    const before = await requireStrategy(change.tx, path, id);
    if (before.milestoneId !== null) {
      throw new ConflictError(
        `Strategy ${id} belongs to a running release plan milestone: start another milestone, or remove the plan`,
      );
    }
    await strategyStore.delete(change.tx, id);
    change.emit({
      type: 'feature-strategy-remove',
      ...scope(feature, path.environment),
      preData: strategyView(before),
    });
    await disableIfNoEnabledStrategies(change, feature, path.environment);
  },

  /** Replaces the segments of one strategy, as a strategy update (feature-strategy-update). */
  async replaceSegments(change: Change, project: string, environment: string, id: string, segmentIds: number[]) {
    const row = await strategyStore.get(change.tx, id);
    if (!row || row.environment !== environment)
      throw new NotFoundError(`Could not find strategy ${id} in environment ${environment}`);
    const { id: _id, featureName, ...strategy } = strategyView(row);
    // The stored strategy was valid when written; it is checked again on the way back in.
    const input = CreateFeatureStrategy.parse({ ...strategy, segments: segmentIds });
    await strategyService.update(change, { project, feature: featureName, environment }, id, input);
  },

  /**
   * Gives a flag that is being switched on in an environment without an enabled strategy the project environment's
   * default strategy (flexibleRollout at 100 % unless configured), as Unleash does. Nothing when it has one.
   */
  async ensureEnabledStrategy(change: Change, feature: FeatureRow, environment: string) {
    const strategies = await strategyStore.listFor(change.tx, feature.name, environment);
    if (strategies.some((strategy) => !strategy.disabled)) return;
    const project = await requireProjectSettings(change.tx, feature.project);
    const configured = await projectReadModel.defaultStrategy(change.tx, feature.project, environment);
    const template = CreateFeatureStrategy.parse(
      configured ?? { name: 'flexibleRollout', constraints: [], parameters: {} },
    );
    const strategy = await normalizeStrategy(change.tx, template, {
      featureName: feature.name,
      defaultStickiness: project.defaultStickiness,
      sortOrder: await strategyStore.nextSortOrder(change.tx, feature.name, environment),
    });
    const id = randomUUID();
    await strategyStore.insert(change.tx, id, feature.name, environment, strategy);
    change.emit({
      type: 'feature-strategy-add',
      ...scope(feature, environment),
      data: strategyView((await strategyStore.get(change.tx, id))!),
    });
  },

  /** Copies every strategy of one flag to a new flag of the same project (cloning), the groupId following the name. */
  async copyAll(change: Change, sourceName: string, target: FeatureRow, replaceGroupId: boolean) {
    for (const strategy of await strategyStore.listForFeatures(change.tx, [sourceName])) {
      const parameters = { ...strategy.parameters };
      if (replaceGroupId && parameters.groupId === sourceName) parameters.groupId = target.name;
      const id = randomUUID();
      await strategyStore.insert(change.tx, id, target.name, strategy.environment, { ...strategy, parameters });
      const copy = await strategyStore.get(change.tx, id);
      change.emit({
        type: 'feature-strategy-add',
        ...scope(target, strategy.environment),
        data: copy ? strategyView(copy) : null,
      });
    }
  },

  async setSortOrder(change: Change, path: StrategyPath, order: readonly { id: string; sortOrder: number }[]) {
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    const before = await strategyStore.listOwn(change.tx, feature.name, path.environment);
    const known = new Set(before.map((strategy) => strategy.id));
    for (const item of order) {
      if (!known.has(item.id))
        throw ValidationError.field('id', `strategy ${item.id} is not on ${feature.name} in ${path.environment}`);
    }
    for (const item of order) await strategyStore.setSortOrder(change.tx, item.id, item.sortOrder);
    const after = await strategyStore.listOwn(change.tx, feature.name, path.environment);
    const beforeIds = before.map((strategy) => strategy.id);
    const afterIds = after.map((strategy) => strategy.id);
    if (JSON.stringify(beforeIds) !== JSON.stringify(afterIds)) {
      change.emit({
        type: 'strategy-order-changed',
        ...scope(feature, path.environment),
        data: { strategyIds: afterIds },
        preData: { strategyIds: beforeIds },
      });
    }
  },

  /**
   * Makes a release plan milestone's strategies the ones serving the flag in the environment ahead of its own:
   * the running milestone's strategies leave (feature-strategy-remove) and the new one's arrive
   * (feature-strategy-add), each event naming the milestone and what started it. Null leaves none running.
   */
  async replaceMilestone(
    change: Change,
    feature: FeatureRow,
    environment: string,
    milestone: { id: string; strategies: readonly StoredMilestoneStrategy[] } | null,
    about: Record<string, unknown>,
  ) {
    const project = await requireProjectSettings(change.tx, feature.project);
    for (const running of await strategyStore.listMilestone(change.tx, feature.name, environment)) {
      await strategyStore.delete(change.tx, running.id);
      change.emit({
        type: 'feature-strategy-remove',
        ...scope(feature, environment),
        data: about,
        preData: strategyView(running),
      });
    }
    if (!milestone) return;
    for (const stored of milestone.strategies) {
      const strategy = await normalizeStrategy(
        change.tx,
        CreateFeatureStrategy.parse({ ...stored, title: stored.title ?? undefined }),
        {
          featureName: feature.name,
          defaultStickiness: project.defaultStickiness,
          sortOrder: stored.sortOrder,
        },
      );
      await strategyStore.insert(change.tx, stored.id, feature.name, environment, strategy, milestone.id);
      change.emit({
        type: 'feature-strategy-add',
        ...scope(feature, environment),
        data: { ...strategyView((await strategyStore.get(change.tx, stored.id))!), ...about },
      });
    }
  },

  /** What a milestone has running, as its plan keeps it. */
  async milestoneStrategies(db: Queryable, milestoneId: string): Promise<StoredMilestoneStrategy[]> {
    return (await strategyStore.listOfMilestone(db, milestoneId)).map((row) => ({
      id: row.id,
      name: row.name,
      title: row.title,
      disabled: row.disabled,
      sortOrder: row.sortOrder,
      constraints: row.constraints,
      variants: row.variants,
      parameters: row.parameters,
      segments: row.segments,
    }));
  },
};
