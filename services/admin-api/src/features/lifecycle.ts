import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
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
  const types = await db.anyFirst(sql.type(z.object({ type: z.string() }))`
    select e.type from admin.feature_environments fe join admin.environments e on e.name = fe.environment
    where fe.feature_name = ${feature.name} and fe.enabled`);
  await featureStore.setLifecycle(db, feature.name, nextStage(feature.lifecycleStage, types));
}

/** Stages only move forward while a feature lives; a revived feature starts again from initial. */
function nextStage(current: string, enabledEnvironmentTypes: readonly string[]): string {
  if (enabledEnvironmentTypes.includes('production')) return 'live';
  if (current === 'live') return 'live';
  if (enabledEnvironmentTypes.length > 0) return 'pre-live';
  return current === 'archived' ? 'initial' : current;
}
