import {
  type AdjustedArm,
  type AdjustedRatioArm,
  type Arm,
  type MeanArm,
  type ProportionArm,
  type RatioArm,
  meanAndVariance,
  sampleCovariance,
  sampleVariance,
} from './arms.ts';

export type DifferenceType = 'relative' | 'absolute';

/** Why an effect could not be estimated; the comparison then reads "no evidence either way". */
export type EffectError = 'ZERO_NEGATIVE_VARIANCE' | 'ZERO_NEGATIVE_BASELINE_VARIATION' | 'MISMATCHED_ARMS';

export interface ArmEstimate {
  readonly n: number;
  /** The mean the effect uses (adjusted by CUPED where a pre-period exists). */
  readonly mean: number;
  readonly unadjustedMean: number;
  /** The variance of one unit's value (adjusted by CUPED where a pre-period exists). */
  readonly variance: number;
}

/** The treatment's effect against the control: a lift (relative) or a difference (absolute), with its standard error. */
export interface Effect {
  readonly estimate: number;
  readonly standardError: number;
  readonly control: ArmEstimate;
  readonly treatment: ArmEstimate;
  /** CUPED's coefficient, estimated from the two arms pooled; absent without a pre-period. */
  readonly theta?: number;
  readonly error?: EffectError;
}

export function estimateEffect(control: Arm, treatment: Arm, differenceType: DifferenceType): Effect {
  if (control.type !== treatment.type) return failed(emptyArm(control.n), emptyArm(treatment.n), 'MISMATCHED_ARMS');
  switch (control.type) {
    case 'adjusted-ratio':
      return adjustedRatioEffect(control, treatment as AdjustedRatioArm, differenceType);
    case 'adjusted-mean':
    case 'adjusted-proportion':
      return adjustedEffect(control, treatment as AdjustedArm, differenceType);
    default:
      return plainEffect(control, treatment as typeof control, differenceType);
  }
}

function plainEffect(
  control: ProportionArm | MeanArm | RatioArm,
  treatment: ProportionArm | MeanArm | RatioArm,
  differenceType: DifferenceType,
): Effect {
  const c = meanAndVariance(control);
  const t = meanAndVariance(treatment);
  const ce: ArmEstimate = { n: control.n, mean: c.mean, unadjustedMean: c.mean, variance: c.variance };
  const te: ArmEstimate = { n: treatment.n, mean: t.mean, unadjustedMean: t.mean, variance: t.variance };
  const problem = unusable(ce, te, differenceType);
  if (problem) return failed(ce, te, problem);
  if (differenceType === 'absolute') {
    return { ...plainDifference(ce, te), control: ce, treatment: te };
  }
  const variance = te.variance / (te.n * ce.mean ** 2) + (ce.variance * te.mean ** 2) / (ce.n * ce.mean ** 4);
  return {
    estimate: (te.mean - ce.mean) / Math.abs(ce.mean),
    standardError: Math.sqrt(variance),
    control: ce,
    treatment: te,
  };
}

function plainDifference(c: ArmEstimate, t: ArmEstimate): { estimate: number; standardError: number } {
  return { estimate: t.mean - c.mean, standardError: Math.sqrt(t.variance / t.n + c.variance / c.n) };
}

function unusable(c: ArmEstimate, t: ArmEstimate, differenceType: DifferenceType): EffectError | undefined {
  if (!(c.variance > 0) || !(t.variance > 0) || c.n < 2 || t.n < 2) return 'ZERO_NEGATIVE_VARIANCE';
  if (differenceType === 'relative' && c.unadjustedMean === 0) return 'ZERO_NEGATIVE_BASELINE_VARIATION';
  return undefined;
}

function failed(control: ArmEstimate, treatment: ArmEstimate, error: EffectError): Effect {
  return { estimate: 0, standardError: 0, control, treatment, error };
}

function emptyArm(n: number): ArmEstimate {
  return { n, mean: 0, unadjustedMean: 0, variance: 0 };
}

interface Moments {
  readonly n: number;
  readonly meanY: number;
  readonly meanX: number;
  readonly varY: number;
  readonly varX: number;
  readonly covXY: number;
}

// 0/1 data use population moments, as for a plain proportion.
function momentsOf(
  type: AdjustedArm['type'],
  n: number,
  sy: number,
  syy: number,
  sx: number,
  sxx: number,
  sxy: number,
): Moments {
  const meanY = n > 0 ? sy / n : 0;
  const meanX = n > 0 ? sx / n : 0;
  if (type === 'adjusted-proportion') {
    return {
      n,
      meanY,
      meanX,
      varY: meanY * (1 - meanY),
      varX: meanX * (1 - meanX),
      covXY: n > 0 ? sxy / n - (sx * sy) / n ** 2 : 0,
    };
  }
  return {
    n,
    meanY,
    meanX,
    varY: sampleVariance(n, sy, syy),
    varX: sampleVariance(n, sx, sxx),
    covXY: sampleCovariance(n, sx, sy, sxy),
  };
}

function armMoments(arm: AdjustedArm): Moments {
  return momentsOf(arm.type, arm.n, arm.sum, arm.sumSquares, arm.preSum, arm.preSumSquares, arm.postPreSumProducts);
}

function adjustedEffect(control: AdjustedArm, treatment: AdjustedArm, differenceType: DifferenceType): Effect {
  const c = armMoments(control);
  const t = armMoments(treatment);
  const pooled = momentsOf(
    control.type,
    control.n + treatment.n,
    control.sum + treatment.sum,
    control.sumSquares + treatment.sumSquares,
    control.preSum + treatment.preSum,
    control.preSumSquares + treatment.preSumSquares,
    control.postPreSumProducts + treatment.postPreSumProducts,
  );
  const theta = pooled.varX > 0 ? pooled.covXY / pooled.varX : 0;
  const adjusted = (m: Moments): ArmEstimate => ({
    n: m.n,
    mean: m.meanY - theta * m.meanX,
    unadjustedMean: m.meanY,
    variance: m.varY + theta ** 2 * m.varX - 2 * theta * m.covXY,
  });
  const ce = adjusted(c);
  const te = adjusted(t);
  const problem = unusable(ce, te, differenceType);
  if (problem) return { ...failed(ce, te, problem), theta };
  if (differenceType === 'absolute') return { ...plainDifference(ce, te), control: ce, treatment: te, theta };
  // θ is taken as known; both parts scale by the unadjusted control mean.
  const base = c.meanY;
  const ratio = t.meanY / base;
  const variance =
    te.variance / (t.n * base ** 2) +
    (c.varY * ratio ** 2 - 2 * theta * c.covXY * ratio + theta ** 2 * c.varX) / (c.n * base ** 2);
  return {
    estimate: (te.mean - ce.mean) / Math.abs(base),
    standardError: Math.sqrt(variance),
    control: ce,
    treatment: te,
    theta,
  };
}

type Vector4 = [number, number, number, number];

interface RatioMoments {
  readonly n: number;
  readonly means: Vector4;
  readonly covariance: Vector4[];
  readonly post: number;
  readonly pre: number;
  /** Gradients of the post and pre ratios with respect to the four means. */
  readonly postGradient: Vector4;
  readonly preGradient: Vector4;
}

function ratioMoments(arm: AdjustedRatioArm): RatioMoments {
  const n = arm.n;
  const means = arm.sums.map((s) => (n > 0 ? s / n : 0)) as Vector4;
  const covariance = [0, 1, 2, 3].map((i) =>
    [0, 1, 2, 3].map((j) => sampleCovariance(n, arm.sums[i]!, arm.sums[j]!, arm.products[i]![j]!)),
  ) as Vector4[];
  const [m, d, pm, pd] = means;
  return {
    n,
    means,
    covariance,
    post: d !== 0 ? m / d : 0,
    pre: pd !== 0 ? pm / pd : 0,
    postGradient: [1 / d, -m / d ** 2, 0, 0],
    preGradient: [0, 0, 1 / pd, -pm / pd ** 2],
  };
}

function quadratic(a: Vector4, covariance: Vector4[], b: Vector4): number {
  let total = 0;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) total += a[i]! * covariance[i]![j]! * b[j]!;
  return total;
}

function combine(a: Vector4, wa: number, b: Vector4, wb: number): Vector4 {
  return a.map((x, i) => wa * x + wb * b[i]!) as Vector4;
}

function adjustedRatioEffect(
  control: AdjustedRatioArm,
  treatment: AdjustedRatioArm,
  differenceType: DifferenceType,
): Effect {
  const c = ratioMoments(control);
  const t = ratioMoments(treatment);
  const preVariance = (m: RatioMoments) => quadratic(m.preGradient, m.covariance, m.preGradient);
  const postPreCovariance = (m: RatioMoments) => quadratic(m.postGradient, m.covariance, m.preGradient);
  const denominator = preVariance(c) + preVariance(t);
  const theta = denominator > 0 ? (postPreCovariance(c) + postPreCovariance(t)) / denominator : 0;
  const adjusted = (m: RatioMoments): ArmEstimate => {
    const gradient = combine(m.postGradient, 1, m.preGradient, -theta);
    return {
      n: m.n,
      mean: m.post - theta * m.pre,
      unadjustedMean: m.post,
      variance: quadratic(gradient, m.covariance, gradient),
    };
  };
  const ce = adjusted(c);
  const te = adjusted(t);
  const problem = unusable(ce, te, differenceType);
  if (problem) return { ...failed(ce, te, problem), theta };
  if (differenceType === 'absolute') return { ...plainDifference(ce, te), control: ce, treatment: te, theta };
  // The lift (adj_t - adj_c) / |R_c| by the delta method over both arms' four means.
  const base = Math.abs(c.post);
  const sign = Math.sign(c.post);
  const numerator = te.mean - ce.mean;
  const treatmentGradient = combine(t.postGradient, 1 / base, t.preGradient, -theta / base);
  const byControlPost = -1 / base - (numerator * sign) / base ** 2;
  const controlGradient = combine(c.postGradient, byControlPost, c.preGradient, theta / base);
  const variance =
    quadratic(treatmentGradient, t.covariance, treatmentGradient) / t.n +
    quadratic(controlGradient, c.covariance, controlGradient) / c.n;
  return { estimate: numerator / base, standardError: Math.sqrt(variance), control: ce, treatment: te, theta };
}
