// What one arm of an experiment keeps for one metric: counts and sums, never raw events. Sums are over randomisation
// units (users), so a unit's value is its total for the metric over the period.

export interface ProportionArm {
  readonly type: 'proportion';
  /** Units in the arm. */
  readonly n: number;
  /** Units whose value is 1. */
  readonly sum: number;
}

export interface MeanArm {
  readonly type: 'mean';
  readonly n: number;
  readonly sum: number;
  readonly sumSquares: number;
}

/** A ratio of sums, such as revenue per session: numerator m and denominator d per unit. */
export interface RatioArm {
  readonly type: 'ratio';
  readonly n: number;
  readonly numeratorSum: number;
  readonly numeratorSumSquares: number;
  readonly denominatorSum: number;
  readonly denominatorSumSquares: number;
  readonly numeratorDenominatorSumProducts: number;
}

/** A mean or a 0/1 metric with the same units' values from a period before the experiment (CUPED). */
export interface AdjustedArm {
  readonly type: 'adjusted-mean' | 'adjusted-proportion';
  readonly n: number;
  readonly sum: number;
  readonly sumSquares: number;
  readonly preSum: number;
  readonly preSumSquares: number;
  readonly postPreSumProducts: number;
}

/** A ratio with its pre-period numerator and denominator, and every cross sum of the four. */
export interface AdjustedRatioArm {
  readonly type: 'adjusted-ratio';
  readonly n: number;
  /** Sums of m, d, pre m, pre d, in that order. */
  readonly sums: readonly [number, number, number, number];
  /** Σ of each product, row-major over the same order (symmetric, 4 x 4). */
  readonly products: readonly (readonly [number, number, number, number])[];
}

export type Arm = ProportionArm | MeanArm | RatioArm | AdjustedArm | AdjustedRatioArm;

/** The sample variance of one unit's value, with n - 1. */
export function sampleVariance(n: number, sum: number, sumSquares: number): number {
  if (n < 2) return 0;
  return (sumSquares - (sum * sum) / n) / (n - 1);
}

export function sampleCovariance(n: number, sumA: number, sumB: number, sumProducts: number): number {
  if (n < 2) return 0;
  return (sumProducts - (sumA * sumB) / n) / (n - 1);
}

/** A plain arm's mean and per-unit variance (the delta method for a ratio of sums). */
export function meanAndVariance(arm: ProportionArm | MeanArm | RatioArm): { mean: number; variance: number } {
  if (arm.n <= 0) return { mean: 0, variance: 0 };
  switch (arm.type) {
    case 'proportion': {
      const p = arm.sum / arm.n;
      // 0/1 data: the population variance, as GrowthBook's engine has it.
      return { mean: p, variance: p * (1 - p) };
    }
    case 'mean':
      return { mean: arm.sum / arm.n, variance: sampleVariance(arm.n, arm.sum, arm.sumSquares) };
    case 'ratio': {
      const m = arm.numeratorSum / arm.n;
      const d = arm.denominatorSum / arm.n;
      if (d === 0) return { mean: 0, variance: 0 };
      const vm = sampleVariance(arm.n, arm.numeratorSum, arm.numeratorSumSquares);
      const vd = sampleVariance(arm.n, arm.denominatorSum, arm.denominatorSumSquares);
      const c = sampleCovariance(arm.n, arm.numeratorSum, arm.denominatorSum, arm.numeratorDenominatorSumProducts);
      return { mean: m / d, variance: vm / d ** 2 + (vd * m ** 2) / d ** 4 - (2 * c * m) / d ** 3 };
    }
  }
}
