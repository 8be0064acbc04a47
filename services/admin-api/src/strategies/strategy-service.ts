import { randomUUID } from 'node:crypto';
import { CreateFeatureStrategy, type PatchOperation } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireFeature } from '../features/feature-lookup.ts';
import { featureEnvironmentStore, type FeatureRow } from '../features/feature-store.ts';
import { applyJsonPatch } from '../features/json-patch.ts';
import { refreshLifecycle } from '../features/lifecycle.ts';
import { requireProject } from '../projects/project-service.ts';
import { projectStore } from '../projects/project-store.ts';
import { normalizeStrategy } from './strategy-rules.ts';
import { strategyStore, strategyView, type StrategyRow } from './strategy-store.ts';

export type StrategyPath = { project: string; feature: string; environment: string };

/** The environment must exist and belong to the feature's project. */
export async function requireProjectEnvironment(db: Queryable, project: string, environment: string) {
  if (!(await projectStore.hasEnvironment(db, project, environment))) {
    throw new NotFoundError(`Could not find environment ${environment} in project ${project}`);
  }
}

async function requireStrategy(db: Queryable, path: StrategyPath, id: string): Promise<StrategyRow> {
  const strategy = await strategyStore.get(db, id);
  if (!strategy || strategy.featureName !== path.feature || strategy.environment !== path.environment) {
    throw new NotFoundError(`Could not find strategy ${id} for ${path.feature} in ${path.environment}`);
  }
  return strategy;
}

function scope(feature: FeatureRow, environment: string) {
  return { project: feature.project, featureName: feature.name, environment };
}

/** An environment with no enabled strategy left cannot stay on: Unleash switches it off. */
async function disableIfNoEnabledStrategies(change: Change, feature: FeatureRow, environment: string) {
  const remaining = await strategyStore.listFor(change.tx, feature.name, environment);
  if (remaining.some((strategy) => !strategy.disabled)) return;
  const state = await featureEnvironmentStore.get(change.tx, feature.name, environment);
  if (!state?.enabled) return;
  await featureEnvironmentStore.setEnabled(change.tx, feature.name, environment, false);
  change.emit({ type: 'feature-environment-disabled', ...scope(feature, environment) });
  await refreshLifecycle(change.tx, feature);
}

export const strategyService = {
  async list(db: Queryable, path: StrategyPath) {
    await requireFeature(db, path.project, path.feature, { allowArchived: true });
    await requireProjectEnvironment(db, path.project, path.environment);
    return (await strategyStore.listFor(db, path.feature, path.environment)).map(strategyView);
  },

  async get(db: Queryable, path: StrategyPath, id: string) {
    await requireFeature(db, path.project, path.feature, { allowArchived: true });
    return strategyView(await requireStrategy(db, path, id));
  },

  async add(change: Change, path: StrategyPath, input: CreateFeatureStrategy) {
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    await requireProjectEnvironment(change.tx, path.project, path.environment);
    const project = await requireProject(change.tx, path.project);
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
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    const before = await requireStrategy(change.tx, path, id);
    const project = await requireProject(change.tx, path.project);
    const strategy = await normalizeStrategy(change.tx, { ...input, sortOrder: input.sortOrder ?? before.sortOrder }, {
      featureName: feature.name,
      defaultStickiness: project.defaultStickiness,
      sortOrder: before.sortOrder,
    });
    await strategyStore.update(change.tx, id, strategy);
    const after = strategyView((await strategyStore.get(change.tx, id))!);
    const previous = strategyView(before);
    if (JSON.stringify(after) !== JSON.stringify(previous)) {
      change.emit({ type: 'feature-strategy-update', ...scope(feature, path.environment), data: after, preData: previous });
    }
    if (strategy.disabled) await disableIfNoEnabledStrategies(change, feature, path.environment);
    return after;
  },

  async patch(change: Change, path: StrategyPath, id: string, operations: readonly PatchOperation[]) {
    const before = await requireStrategy(change.tx, path, id);
    const { id: _id, featureName: _feature, ...editable } = strategyView(before);
    const parsed = CreateFeatureStrategy.safeParse(applyJsonPatch(editable, operations));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw ValidationError.field(issue.path.join('.') || 'patch', issue.message);
    }
    return strategyService.update(change, path, id, parsed.data);
  },

  async remove(change: Change, path: StrategyPath, id: string) {
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    const before = await requireStrategy(change.tx, path, id);
    await strategyStore.delete(change.tx, id);
    change.emit({ type: 'feature-strategy-remove', ...scope(feature, path.environment), preData: strategyView(before) });
    await disableIfNoEnabledStrategies(change, feature, path.environment);
  },

  async setSortOrder(change: Change, path: StrategyPath, order: readonly { id: string; sortOrder: number }[]) {
    const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
    const before = await strategyStore.listFor(change.tx, feature.name, path.environment);
    const known = new Set(before.map((strategy) => strategy.id));
    for (const item of order) {
      if (!known.has(item.id)) throw ValidationError.field('id', `strategy ${item.id} is not on ${feature.name} in ${path.environment}`);
    }
    for (const item of order) await strategyStore.setSortOrder(change.tx, item.id, item.sortOrder);
    const after = await strategyStore.listFor(change.tx, feature.name, path.environment);
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
};
