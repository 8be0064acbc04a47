import { ValidationError, type Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';
import type { Change } from '../events/changes.ts';
import { featureStore, type FeatureRow } from './feature-store.ts';
import { lifecycleStore } from './lifecycle-store.ts';

/**
 * The lifecycle stage follows the feature's state: archived; completed when marked so; live once on in a
 * production-type environment; pre-live once on anywhere else; initial before that.
 */
export async function refreshLifecycle(db: WriteTx, feature: FeatureRow): Promise<void> {
  if (feature.archivedAt !== null) {
    await featureStore.setLifecycle(db, feature.name, 'archived');
    return;
  }
  if (feature.lifecycleStage === 'completed') return;
  await featureStore.setLifecycle(
    db,
    feature.name,
    nextStage(feature.lifecycleStage, await lifecycleStore.enabledEnvironmentTypes(db, feature.name)),
  );
}

const STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;

export const lifecycleService = {
  /** The stages a flag went through, in order (GET .../lifecycle). */
  async history(db: Queryable, name: string) {
    const stages = await lifecycleStore.history(db, name);
    return stages.map(({ status, statusValue: _value, ...stage }) => ({ ...stage, ...(status ? { status } : {}) }));
  },

  /** Marks a flag completed (kept or discarded, with the variant or value kept) and records feature-completed. */
  async complete(
    change: Change,
    feature: FeatureRow,
    input: { status: 'kept' | 'discarded'; statusValue?: string | undefined },
  ) {
    if (feature.archivedAt !== null) throw ValidationError.field('featureName', 'an archived flag cannot be completed');
    await featureStore.setLifecycle(change.tx, feature.name, 'completed', {
      status: input.status,
      statusValue: input.statusValue ?? null,
    });
    change.emit({
      type: 'feature-completed',
      project: feature.project,
      featureName: feature.name,
      data: { status: input.status, statusValue: input.statusValue ?? null },
    });
  },

  /** Takes a completed flag back to the stage its state gives, and records feature-uncompleted. */
  async uncomplete(change: Change, feature: FeatureRow) {
    if (feature.lifecycleStage !== 'completed') return;
    const stage = nextStage('initial', await lifecycleStore.enabledEnvironmentTypes(change.tx, feature.name));
    await featureStore.setLifecycle(change.tx, feature.name, stage);
    change.emit({ type: 'feature-uncompleted', project: feature.project, featureName: feature.name });
  },

  /** How many flags are in each stage (GET /api/admin/lifecycle/count). */
  async count(db: Queryable) {
    const rows = await lifecycleStore.countByStage(db);
    const counts = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<(typeof STAGES)[number], number>;
    for (const row of rows) if (row.stage in counts) counts[row.stage as (typeof STAGES)[number]] = row.count;
    return {
      initial: counts.initial,
      preLive: counts['pre-live'],
      live: counts.live,
      completed: counts.completed,
      archived: counts.archived,
    };
  },
};

/** Stages only move forward while a feature lives; a revived feature starts again from initial. */
function nextStage(current: string, enabledEnvironmentTypes: readonly string[]): string {
  if (enabledEnvironmentTypes.includes('production')) return 'live';
  if (current === 'live') return 'live';
  if (enabledEnvironmentTypes.length > 0) return 'pre-live';
  return current === 'archived' ? 'initial' : current;
}
