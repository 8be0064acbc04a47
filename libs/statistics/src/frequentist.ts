import { studentQuantile, studentTwoSidedTail } from './distributions.ts';
import type { Effect } from './effect.ts';

/** An interval on the effect's scale; null is an open end (minus or plus infinity). */
export interface Interval {
  readonly lower: number | null;
  readonly upper: number | null;
}

export interface FrequentistResult {
  readonly estimate: number;
  readonly standardError: number;
  readonly interval: Interval;
  readonly pValue: number;
  readonly error?: Effect['error'];
}

const UNINFORMATIVE = { interval: { lower: 0, upper: 0 }, pValue: 1 } as const;

function uninformative(effect: Effect): FrequentistResult {
  return { estimate: 0, standardError: 0, ...UNINFORMATIVE, error: effect.error };
}

/** Welch-Satterthwaite degrees of freedom from the arms' per-unit variances. */
export function welchDegreesOfFreedom(effect: Effect): number {
  const c = effect.control.variance / effect.control.n;
  const t = effect.treatment.variance / effect.treatment.n;
  return (c + t) ** 2 / (t ** 2 / (effect.treatment.n - 1) + c ** 2 / (effect.control.n - 1));
}

/** A fixed-horizon two-sided Student t test: valid when the result is read once, at the planned sample. */
export function twoSidedTest(effect: Effect, alpha = 0.05): FrequentistResult {
  if (effect.error) return uninformative(effect);
  const { estimate, standardError } = effect;
  const dof = welchDegreesOfFreedom(effect);
  const half = studentQuantile(1 - alpha / 2, dof) * standardError;
  return {
    estimate,
    standardError,
    interval: { lower: estimate - half, upper: estimate + half },
    pValue: studentTwoSidedTail(estimate / standardError, dof),
  };
}

/**
 * ρ of an asymptotic confidence sequence (Waudby-Smith et al.) tuned so the sequence is tightest when the two arms
 * together hold `tuning` units.
 */
function sequenceRho(alpha: number, tuning: number): number {
  return Math.sqrt((-2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha))) / tuning);
}

function pairUnits(effect: Effect): number {
  return effect.control.n + effect.treatment.n;
}

/**
 * A two-sided always-valid test: the interval and p-value may be read at every look without inflating false alarms.
 * The p-value is below alpha exactly when the interval leaves out zero.
 */
export function sequentialTwoSidedTest(effect: Effect, alpha = 0.05, tuning = 5000): FrequentistResult {
  if (effect.error) return uninformative(effect);
  const { estimate, standardError } = effect;
  const n = pairUnits(effect);
  const rho = sequenceRho(alpha, tuning);
  const spread = n * rho ** 2 + 1;
  const half =
    standardError *
    Math.sqrt(n) *
    Math.sqrt(((2 * spread) / (n ** 2 * rho ** 2)) * Math.log(Math.sqrt(spread) / alpha));
  const z = estimate / standardError;
  const pValue = Math.min(1, Math.sqrt(spread) * Math.exp((-(rho ** 2) * n * z ** 2) / (2 * spread)));
  return { estimate, standardError, interval: { lower: estimate - half, upper: estimate + half }, pValue };
}

/** Which way is harm: a drop for a metric where higher is better, a rise for one where lower is better. */
export type HarmDirection = 'decrease' | 'increase';

const ONE_SIDED_P_FLOOR = 1e-5;
const ONE_SIDED_P_CEILING = 0.4999;

/**
 * A one-sided always-valid test for harm (a guardrail): the interval is open on the good side, and harm is shown when
 * its closed end has crossed zero. The p-value is the smallest alpha at which the bound reaches zero, held within
 * [1e-5, 0.4999] as GrowthBook reports it; an estimate pointing the good way reads 0.4999.
 */
export function sequentialHarmTest(
  effect: Effect,
  harm: HarmDirection,
  alpha = 0.05,
  tuning = 5000,
): FrequentistResult {
  if (effect.error) return uninformative(effect);
  const { estimate, standardError } = effect;
  const n = pairUnits(effect);
  const rho = sequenceRho(2 * alpha, tuning);
  const spread = n * rho ** 2 + 1;
  const halfAt = (a: number) =>
    standardError *
    Math.sqrt(n) *
    Math.sqrt(((2 * spread) / (n ** 2 * rho ** 2)) * Math.log(1 + Math.sqrt(spread) / (2 * a)));
  const half = halfAt(alpha);
  const interval =
    harm === 'decrease' ? { lower: null, upper: estimate + half } : { lower: estimate - half, upper: null };
  const harmful = harm === 'decrease' ? estimate < 0 : estimate > 0;
  let pValue = ONE_SIDED_P_CEILING;
  if (harmful) {
    const k = (estimate ** 2 * n * rho ** 2) / (2 * standardError ** 2 * spread);
    const exact = Math.sqrt(spread) / (2 * Math.expm1(k));
    pValue = Math.min(ONE_SIDED_P_CEILING, Math.max(ONE_SIDED_P_FLOOR, exact));
  }
  return { estimate, standardError, interval, pValue };
}
