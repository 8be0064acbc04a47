import { IMPACT_DROPS_HELP, admitImpactMetrics, type ImpactMetric } from '@bunting/contracts';
import type { Metrics } from '@bunting/platform';

/** Reads a post's impact metrics; what it had to leave out is counted (by environment), never a reason to refuse the post. */
export type AdmitImpact = (raw: unknown, environment: string) => ImpactMetric[] | undefined;

/**
 * The SDK edge's admission of impact metrics: malformed metrics and samples are dropped here (counted in
 * bunting_impact_metrics_dropped_total{stage="edge"}), so the metrics stream carries only what insights can keep
 * and the flag counts of the same post are published whatever the impact metrics held.
 */
export function impactAdmission(metrics: Metrics): AdmitImpact {
  const dropped = metrics.counter('bunting_impact_metrics_dropped_total', IMPACT_DROPS_HELP, [
    'stage',
    'reason',
    'environment',
  ]);
  return (raw, environment) => {
    const admitted = admitImpactMetrics(raw);
    for (const [reason, count] of Object.entries(admitted.dropped))
      dropped.inc({ stage: 'edge', reason, environment }, count);
    return admitted.metrics.length > 0 ? admitted.metrics : undefined;
  };
}
