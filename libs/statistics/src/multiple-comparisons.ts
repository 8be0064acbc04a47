import { normalQuantile } from './distributions.ts';
import type { Interval } from './frequentist.ts';

export type Correction = 'holm' | 'benjamini-hochberg';

function ascendingOrder(pValues: readonly number[]): number[] {
  return pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]!);
}

/** Holm-Bonferroni: controls the chance of any false positive across the family. */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const adjusted = new Array<number>(m);
  let running = 0;
  ascendingOrder(pValues).forEach((index, rank) => {
    running = Math.max(running, Math.min(1, pValues[index]! * (m - rank)));
    adjusted[index] = running;
  });
  return adjusted;
}

/** Benjamini-Hochberg: controls the expected share of false positives among the results called significant. */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const adjusted = new Array<number>(m);
  const order = ascendingOrder(pValues);
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank--) {
    const index = order[rank]!;
    running = Math.min(running, Math.min(1, (pValues[index]! * m) / (rank + 1)));
    adjusted[index] = running;
  }
  return adjusted;
}

export function adjustPValues(pValues: readonly number[], correction: Correction): number[] {
  return correction === 'holm' ? holm(pValues) : benjaminiHochberg(pValues);
}

/**
 * An interval consistent with an adjusted p-value: the normal interval whose p-value that would be, kept only where it
 * is wider than the unadjusted one on both sides.
 */
export function adjustedInterval(estimate: number, interval: Interval, adjustedP: number, alpha = 0.05): Interval {
  if (adjustedP > 0.999999) return { lower: null, upper: null };
  const sd = Math.abs(estimate) / normalQuantile(1 - adjustedP / 2);
  const z = normalQuantile(1 - alpha / 2);
  const lower = estimate - z * sd;
  const upper = estimate + z * sd;
  const wider =
    (interval.lower === null || lower < interval.lower) && (interval.upper === null || upper > interval.upper);
  return wider ? { lower, upper } : interval;
}
