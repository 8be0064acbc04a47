import { normalCdf, normalDensity, normalQuantile } from './distributions.ts';
import type { DifferenceType, Effect } from './effect.ts';
import type { Interval } from './frequentist.ts';

/** A normal prior on the relative lift; `proper: false` is the flat (improper) prior. */
export interface Prior {
  readonly proper: boolean;
  readonly mean: number;
  readonly variance: number;
}

export const FLAT_PRIOR: Prior = { proper: false, mean: 0, variance: 1 };
/** GrowthBook's default proper prior: most lifts lie within ±60 %. */
export const DEFAULT_PROPER_PRIOR: Prior = { proper: true, mean: 0, variance: 0.09 };

export interface BayesianResult {
  /** The posterior mean of the effect. */
  readonly estimate: number;
  /** The posterior standard deviation. */
  readonly standardError: number;
  readonly interval: Interval;
  /** The chance the treatment is better than the control. */
  readonly chanceToWin: number;
  /** The expected loss of keeping the control, and of shipping the treatment, on the effect's scale. */
  readonly risk: { readonly control: number; readonly treatment: number };
  readonly error?: Effect['error'];
}

export interface BayesianOptions {
  readonly differenceType: DifferenceType;
  readonly prior?: Prior;
  /** Lower is better (errors, latency). */
  readonly inverse?: boolean;
  readonly alpha?: number;
}

export function bayesianTest(effect: Effect, options: BayesianOptions): BayesianResult {
  const { prior = FLAT_PRIOR, inverse = false, alpha = 0.05 } = options;
  if (effect.error) {
    return {
      estimate: 0,
      standardError: 0,
      interval: { lower: 0, upper: 0 },
      chanceToWin: 0.5,
      risk: { control: 0, treatment: 0 },
      error: effect.error,
    };
  }
  let mean = effect.estimate;
  let sd = effect.standardError;
  if (prior.proper) {
    // The prior speaks of the lift; on the absolute scale it is scaled by the control's mean.
    const base = effect.control.unadjustedMean;
    const priorMean = options.differenceType === 'absolute' ? prior.mean * Math.abs(base) : prior.mean;
    const priorVariance = options.differenceType === 'absolute' ? prior.variance * base ** 2 : prior.variance;
    const precision = 1 / sd ** 2 + 1 / priorVariance;
    mean = (effect.estimate / sd ** 2 + priorMean / priorVariance) / precision;
    sd = Math.sqrt(1 / precision);
  }
  const z = normalQuantile(1 - alpha / 2);
  const up = normalCdf(mean / sd);
  const gain = expectedPositivePart(mean, sd);
  const loss = expectedPositivePart(-mean, sd);
  return {
    estimate: mean,
    standardError: sd,
    interval: { lower: mean - z * sd, upper: mean + z * sd },
    chanceToWin: inverse ? 1 - up : up,
    risk: inverse ? { control: loss, treatment: gain } : { control: gain, treatment: loss },
  };
}

/** E[max(D, 0)] for D ~ N(mean, sd²). */
function expectedPositivePart(mean: number, sd: number): number {
  const z = mean / sd;
  if (Math.abs(z) > 37) return Math.max(mean, 0);
  return mean * normalCdf(z) + sd * normalDensity(z);
}
