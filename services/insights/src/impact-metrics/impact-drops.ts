import type { ImpactDropReason } from '@bunting/contracts';
import type { Metrics } from '@bunting/platform';
import type { DropCounter } from './impact-points.ts';

/**
 * Counts what was left out of the impact metrics, by stage (the SDK edge's admission, insights' limits) and reason,
 * as bunting_impact_metrics_dropped_total: nothing is dropped silently.
 */
export function impactDropCounter(metrics: Metrics, stage: 'edge' | 'insights'): DropCounter {
  const counter = metrics.counter('bunting_impact_metrics_dropped_total', 'Impact metrics or samples left out, by the stage that dropped them and why', ['stage', 'reason']);
  return (reason: ImpactDropReason, count = 1) => counter.inc({ stage, reason }, count);
}
