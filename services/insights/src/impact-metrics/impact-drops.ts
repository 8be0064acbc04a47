import { IMPACT_DROPS_HELP, type ImpactDropReason } from '@bunting/contracts';
import type { Metrics } from '@bunting/platform';
import type { DropCounter } from './impact-points.ts';

/**
 * Counts what was left out of the impact metrics, by stage (the SDK edge's admission, insights' limits), reason and
 * environment, as bunting_impact_metrics_dropped_total: nothing is dropped silently, and a production safeguard's
 * missing data shows as production's.
 */
export function impactDropCounter(metrics: Metrics, stage: 'edge' | 'insights'): DropCounter {
  const counter = metrics.counter('bunting_impact_metrics_dropped_total', IMPACT_DROPS_HELP, [
    'stage',
    'reason',
    'environment',
  ]);
  return (reason: ImpactDropReason, count = 1, environment = 'unknown') =>
    counter.inc({ stage, reason, environment }, count);
}
