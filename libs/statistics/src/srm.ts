import { chiSquaredUpper } from './distributions.ts';

/** GrowthBook's default: below this p-value the split is broken and results must not be read. */
export const SRM_THRESHOLD = 0.001;

export interface SampleRatioCheck {
  readonly chiSquared: number;
  readonly pValue: number;
  readonly mismatch: boolean;
}

/**
 * Pearson's chi-squared test of the units each arm saw against the split configured (weights, any scale). An arm
 * weighted zero is left out of the sum; the degrees of freedom stay one fewer than the arms.
 */
export function checkSampleRatio(
  units: readonly number[],
  weights: readonly number[],
  threshold = SRM_THRESHOLD,
): SampleRatioCheck {
  const total = units.reduce((a, b) => a + b, 0);
  const weightTotal = weights.reduce((a, b) => a + Math.max(b, 0), 0);
  if (total <= 0 || weightTotal <= 0 || units.length < 2) return { chiSquared: 0, pValue: 1, mismatch: false };
  let chiSquared = 0;
  units.forEach((observed, i) => {
    const weight = weights[i] ?? 0;
    if (weight <= 0) return;
    const expected = (total * weight) / weightTotal;
    chiSquared += (observed - expected) ** 2 / expected;
  });
  const pValue = chiSquaredUpper(chiSquared, units.length - 1);
  return { chiSquared, pValue, mismatch: pValue < threshold };
}
