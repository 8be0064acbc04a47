import type { Arm, MeanArm, ProportionArm } from './arms.ts';
import { estimateEffect, type DifferenceType, type Effect } from './effect.ts';

/** What a metric's series add up to for one side: a counter's increase, or a histogram's sum, count and Σx². */
export interface MetricTotals {
  readonly total: number;
  readonly observations: number | null;
  readonly squares: number | null;
}

/**
 * One side of a comparison from a metric's totals. A counter is read per exposure: at most one event per evaluation
 * is a rate (a proportion); more is a count, its variance taken as Poisson's. A histogram's unit is an observation.
 */
export function armFromTotals(
  type: 'counter' | 'histogram',
  totals: MetricTotals,
  exposures: number,
): ProportionArm | MeanArm {
  if (type === 'histogram') {
    return { type: 'mean', n: totals.observations ?? 0, sum: totals.total, sumSquares: totals.squares ?? 0 };
  }
  const n = Math.max(0, exposures);
  const sum = Math.max(0, totals.total);
  if (sum <= n) return { type: 'proportion', n, sum };
  return { type: 'mean', n, sum, sumSquares: sum + (sum * sum) / n };
}

/** The lift relative to the control's mean, or the absolute difference while the control is at zero. */
export function liftOrDifference(control: Arm, treatment: Arm): { differenceType: DifferenceType; effect: Effect } {
  const relative = estimateEffect(control, treatment, 'relative');
  if (relative.error !== 'ZERO_NEGATIVE_BASELINE_VARIATION' && relative.control.mean !== 0) {
    return { differenceType: 'relative', effect: relative };
  }
  return { differenceType: 'absolute', effect: estimateEffect(control, treatment, 'absolute') };
}
