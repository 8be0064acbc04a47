import { z } from 'zod';
import { ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { featureStore, type FeatureRow } from './feature-store.ts';

/**
 * The lifecycle stage follows the feature's state: archived; completed when marked so; live once on in a
 * production-type environment; pre-live once on anywhere else; initial before that.
 */
export async function refreshLifecycle(db: Queryable, feature: FeatureRow): Promise<void> {
  if (feature.archivedAt !== null) {
    await featureStore.setLifecycle(db, feature.name, 'archived');
    return;
  }
  if (feature.lifecycleStage === 'completed') return;
  await featureStore.setLifecycle(db, feature.name, nextStage(feature.lifecycleStage, await enabledEnvironmentTypes(db, feature.name)));
}

function enabledEnvironmentTypes(db: Queryable, name: string) {
  return db.anyFirst(sql.type(z.object({ type: z.string() }))`
    select e.type from admin.feature_environments fe join admin.environments e on e.name = fe.environment
    where fe.feature_name = ${name} and fe.enabled`);
}

const Stage = z.object({ stage: z.string(), status: z.string().nullable(), statusValue: z.string().nullable(), enteredStageAt: z.string() });
const STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;

export const lifecycleService = {
  /** The stages a flag went through, in order (GET .../lifecycle). */
  async history(db: Queryable, name: string) {
    const stages = await db.any(sql.type(Stage)`
      select stage, status, status_value as "statusValue", entered_at as "enteredStageAt"
      from admin.feature_lifecycle_stages where feature_name = ${name} order by entered_at, stage`);
    return stages.map(({ status, statusValue: _value, ...stage }) => ({ ...stage, ...(status ? { status } : {}) }));
  },

  /** Marks a flag completed (kept or discarded, with the variant or value kept) and records feature-completed. */
  async complete(change: Change, feature: FeatureRow, input: { status: 'kept' | 'discarded'; statusValue?: string | undefined }) {
    if (feature.archivedAt !== null) throw ValidationError.field('featureName', 'an archived flag cannot be completed');
    await featureStore.setLifecycle(change.tx, feature.name, 'completed', { status: input.status, statusValue: input.statusValue ?? null });
    change.emit({ type: 'feature-completed', project: feature.project, featureName: feature.name, data: { status: input.status, statusValue: input.statusValue ?? null } });
  },

  /** Takes a completed flag back to the stage its state gives, and records feature-uncompleted. */
  async uncomplete(change: Change, feature: FeatureRow) {
    if (feature.lifecycleStage !== 'completed') return;
    const stage = nextStage('initial', await enabledEnvironmentTypes(change.tx, feature.name));
    await featureStore.setLifecycle(change.tx, feature.name, stage);
    change.emit({ type: 'feature-uncompleted', project: feature.project, featureName: feature.name });
  },

  /** How many flags are in each stage (GET /api/admin/lifecycle/count). */
  async count(db: Queryable) {
    const rows = await db.any(sql.type(z.object({ stage: z.string(), count: z.number() }))`
      select lifecycle_stage as stage, count(*)::int as count from admin.features group by lifecycle_stage`);
    const counts = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<(typeof STAGES)[number], number>;
    for (const row of rows) if (row.stage in counts) counts[row.stage as (typeof STAGES)[number]] = row.count;
    return { initial: counts.initial, preLive: counts['pre-live'], live: counts.live, completed: counts.completed, archived: counts.archived };
  },
};

/** Stages only move forward while a feature lives; a revived feature starts again from initial. */
function nextStage(current: string, enabledEnvironmentTypes: readonly string[]): string {
  if (enabledEnvironmentTypes.includes('production')) return 'live';
  if (current === 'live') return 'live';
  if (enabledEnvironmentTypes.length > 0) return 'pre-live';
  return current === 'archived' ? 'initial' : current;
}
