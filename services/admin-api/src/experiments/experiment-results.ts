import {
  impactDisplayName,
  type Experiment,
  type ExperimentResults,
  type ImpactVariantsView,
  type TrackedUnitsView,
  type UnitMoments,
} from '@bunting/contracts';
import {
  adjustPValues,
  armFromTotals,
  bayesianTest,
  checkSampleRatio,
  estimateEffect,
  liftOrDifference,
  GUARDRAIL_FLOOR,
  sequentialTwoSidedTest,
  twoSidedTest,
  type Arm,
  type DifferenceType,
} from '@bunting/statistics';
import type { z } from 'zod';

export type VariantsAnswer = z.infer<typeof ImpactVariantsView.answer>;
export type TrackedAnswer = z.infer<typeof TrackedUnitsView.answer>;
/** A metric's figures: insights' impact series per variant, or its tracked outcomes per user. */
export type MetricAnswer = VariantsAnswer | TrackedAnswer;
type MetricResult = ExperimentResults['metrics'][number];
type Comparison = MetricResult['comparisons'][number];
type ExperimentMetric = Experiment['metrics'][number];
type Totals = VariantsAnswer['steps'][number]['arms'][string];

const isTracked = (answer: MetricAnswer): answer is TrackedAnswer => 'excludedUnits' in answer;

const EMPTY: Totals = { total: 0, observations: null, squares: null };
const add = (a: Totals, b: Totals): Totals => ({
  total: a.total + b.total,
  observations: b.observations === null ? a.observations : (a.observations ?? 0) + b.observations,
  squares: b.squares === null ? a.squares : (a.squares ?? 0) + b.squares,
});

type Readings = { variant: string; reading: Reading | null }[];
type Reading = {
  differenceType: DifferenceType;
  effect: number;
  standardError: number;
  interval: { lower: number | null; upper: number | null };
  pValue: number;
  chanceToWin: number;
  risk: { control: number; variant: number };
  /** Each side's mean after CUPED, on the metric's own scale; null without the adjustment (or for a ratio). */
  adjustedMeans: { control: number; variant: number } | null;
};

/** One variant against the control: the lift (absolute while the control is at zero) and both readings. */
function compare(
  control: Arm,
  variant: Arm,
  experiment: Pick<Experiment, 'method' | 'alpha'>,
  lowerIsBetter: boolean,
): Reading | null {
  if (control.n < GUARDRAIL_FLOOR || variant.n < GUARDRAIL_FLOOR) return null;
  const { differenceType, effect } = liftOrDifference(control, variant);
  if (effect.error) return null;
  const test =
    experiment.method === 'sequential'
      ? sequentialTwoSidedTest(effect, experiment.alpha)
      : twoSidedTest(effect, experiment.alpha);
  const bayes = bayesianTest(effect, { differenceType, inverse: lowerIsBetter, alpha: experiment.alpha });
  return {
    differenceType,
    effect: test.estimate,
    standardError: effect.standardError,
    interval: test.interval,
    pValue: test.pValue,
    chanceToWin: bayes.chanceToWin,
    risk: { control: bayes.risk.control, variant: bayes.risk.treatment },
    adjustedMeans: adjustedMeans(control, variant, effect.theta, effect.control.mean, effect.treatment.mean),
  };
}

/**
 * The engine's adjusted means are y - θx; adding θ times both sides' mean before puts them back on the metric's
 * scale (each side's mean as if both had had the same period before), which is what a reader compares.
 */
function adjustedMeans(control: Arm, variant: Arm, theta: number | undefined, c: number, t: number) {
  if (theta === undefined || control.type === 'adjusted-ratio' || variant.type === 'adjusted-ratio') return null;
  if (!('preSum' in control) || !('preSum' in variant)) return null;
  const before = (control.preSum + variant.preSum) / (control.n + variant.n);
  return { control: c + theta * before, variant: t + theta * before };
}

const percent = (value: number) => `${Number((value * 100).toPrecision(3))} %`;
/** A chance as people say it: never a flat 0 % or 100 %, which the data cannot promise. */
const chance = (value: number) => (value > 0.999 ? 'over 99.9 %' : value < 0.001 ? 'under 0.1 %' : percent(value));
const signedSize = (value: number, type: DifferenceType) =>
  type === 'relative' ? percent(Math.abs(value)) : Number(Math.abs(value).toPrecision(3)).toString();

function summaryOf(variant: string, metric: string, reading: Reading, verdict: Comparison['verdict']): string {
  const way = reading.effect >= 0 ? 'higher' : 'lower';
  const size = signedSize(reading.effect, reading.differenceType);
  const win = `${chance(reading.chanceToWin)} chance it beats the control`;
  if (verdict === 'inconclusive') {
    return `${variant}: ${metric} ${size} ${way} so far, which could still be chance (${win}).`;
  }
  return `${variant} is ${verdict} on ${metric}: ${size} ${way} than the control, beyond chance (${win}).`;
}

/** A step's arms per variant: what the comparison reads (adjusted where CUPED applies) and the plain ones. */
type Step = { at: string; arms: Record<string, Arm>; plain: Record<string, Arm> };

/** Impact series: running totals per hour, each variant's exposures its units (a histogram's observations). */
function impactSteps(answer: VariantsAnswer, type: 'counter' | 'histogram'): Step[] {
  const running: Record<string, Totals> = {};
  const seen: Record<string, number> = {};
  return answer.steps.map((hour) => {
    for (const [variant, totals] of Object.entries(hour.arms))
      running[variant] = add(running[variant] ?? EMPTY, totals);
    for (const [variant, count] of Object.entries(hour.exposures)) seen[variant] = (seen[variant] ?? 0) + count;
    const arms = Object.fromEntries(
      [...new Set([...Object.keys(running), ...Object.keys(seen)])].map((variant) => [
        variant,
        armFromTotals(type, running[variant] ?? EMPTY, seen[variant] ?? 0),
      ]),
    );
    return { at: hour.at, arms, plain: arms };
  });
}

/** A user's-values arm from its moments: plain, and adjusted for the period before when `adjust`. */
function trackedArm(metric: ExperimentMetric, m: UnitMoments, adjust: boolean): Arm {
  const [y, d, x, dx] = m.sums as [number, number, number, number];
  const p = m.products;
  const at = (i: number, j: number) => p[i]![j]!;
  if (metric.denominator !== null) {
    if (adjust) {
      return {
        type: 'adjusted-ratio',
        n: m.n,
        sums: [y, d, x, dx],
        products: p.map((row) => row as [number, number, number, number]),
      };
    }
    return {
      type: 'ratio',
      n: m.n,
      numeratorSum: y,
      numeratorSumSquares: at(0, 0),
      denominatorSum: d,
      denominatorSumSquares: at(1, 1),
      numeratorDenominatorSumProducts: at(0, 1),
    };
  }
  const converted = metric.aggregation === 'converted';
  if (adjust) {
    return {
      type: converted ? 'adjusted-proportion' : 'adjusted-mean',
      n: m.n,
      sum: y,
      sumSquares: at(0, 0),
      preSum: x,
      preSumSquares: at(2, 2),
      postPreSumProducts: at(0, 2),
    };
  }
  return converted ? { type: 'proportion', n: m.n, sum: y } : { type: 'mean', n: m.n, sum: y, sumSquares: at(0, 0) };
}

/** Tracked outcomes: per day, each variant's users; adjusted by CUPED once users with a period before are in. */
function trackedSteps(answer: TrackedAnswer, metric: ExperimentMetric): Step[] {
  return answer.steps.map((day) => {
    const entries = Object.entries(day.arms);
    const history = entries.reduce((total, [, moments]) => total + moments.withHistory, 0);
    const adjust = metric.preDays > 0 && history >= 2;
    const plain = Object.fromEntries(entries.map(([variant, m]) => [variant, trackedArm(metric, m, false)]));
    const arms = adjust
      ? Object.fromEntries(entries.map(([variant, m]) => [variant, trackedArm(metric, m, true)]))
      : plain;
    return { at: day.at, arms, plain };
  });
}

const unitsOf = (arm: Arm | undefined) => arm?.n ?? 0;
function plainMean(arm: Arm | undefined): number {
  if (!arm || arm.n === 0) return 0;
  switch (arm.type) {
    case 'ratio':
      return arm.denominatorSum === 0 ? 0 : arm.numeratorSum / arm.denominatorSum;
    case 'adjusted-ratio':
      return arm.sums[1] === 0 ? 0 : arm.sums[0] / arm.sums[1];
    default:
      return arm.sum / arm.n;
  }
}

/** How much CUPED narrowed the first variant's comparison: 1 - (adjusted variance / plain variance). */
function varianceReduction(step: Step, control: string, variants: readonly string[]): number {
  for (const variant of variants) {
    const [a, b, c, d] = [step.arms[control], step.arms[variant], step.plain[control], step.plain[variant]];
    if (!a || !b || !c || !d || a === c) continue;
    const adjusted = estimateEffect(a, b, 'absolute');
    const plain = estimateEffect(c, d, 'absolute');
    if (adjusted.error || plain.error || plain.standardError === 0) continue;
    return 1 - (adjusted.standardError / plain.standardError) ** 2;
  }
  return 0;
}

/**
 * An experiment's results from insights' figures: per metric, each variant's exposures, units and mean, its
 * comparison with the control (frequentist, with the correction across the experiment's metrics and variants, and
 * Bayesian), the effect at the end of each step, the split check and whether the minimum sample is in. Impact
 * metrics count evaluations; tracked ones count users, adjusted for the period before where there is one (CUPED).
 * `exposures` are the SDK metrics' counts (any impact metric's answer carries them).
 */
export function experimentResults(
  experiment: Experiment,
  answers: readonly MetricAnswer[],
  weights: Record<string, number> | null,
  asOf: string,
  exposureAnswer: VariantsAnswer | undefined = answers.find((answer): answer is VariantsAnswer => !isTracked(answer)),
): ExperimentResults {
  const exposures: Record<string, number> = {};
  for (const hour of exposureAnswer?.steps ?? []) {
    for (const [variant, count] of Object.entries(hour.exposures))
      exposures[variant] = (exposures[variant] ?? 0) + count;
  }
  const variants = weights
    ? Object.keys(weights)
    : Object.keys(exposures).filter((name) => name !== 'disabled' && name !== 'enabled');
  const others = variants.filter((name) => name !== experiment.controlVariant);
  const control = experiment.controlVariant;
  const computed = experiment.metrics.map(
    (metric, index): { result: MetricResult; readings: Readings; last: Step | undefined } => {
      const answer = answers[index];
      const tracked = answer !== undefined && isTracked(answer);
      const type = answer === undefined ? null : tracked ? 'counter' : answer.type;
      const base = {
        ...metric,
        type,
        arms: [],
        comparisons: [] as Comparison[],
        overTime: [],
        adjustment: null,
      };
      if (!answer || type === null || type === 'gauge' || (tracked && answer.steps.length === 0)) {
        const note =
          type === 'gauge'
            ? 'A gauge cannot be split by variant: use a counter or a histogram.'
            : tracked
              ? `No user has been answered by the flag and tracked yet (send track() calls and exposures through the OpenFeature provider).`
              : `No series of ${metric.metricName} carry the flag's label yet.`;
        return { result: { ...base, note }, readings: [], last: undefined };
      }
      const steps = tracked ? trackedSteps(answer, metric) : impactSteps(answer, type);
      const lowerIsBetter = metric.better === 'decrease';
      const overTime: MetricResult['overTime'] = [];
      for (const step of steps) {
        const controlArm = step.arms[control];
        for (const variant of others) {
          const variantArm = step.arms[variant];
          const reading = controlArm && variantArm && compare(controlArm, variantArm, experiment, lowerIsBetter);
          if (reading) {
            overTime.push({
              at: step.at,
              variant,
              effect: reading.effect,
              lower: reading.interval.lower,
              upper: reading.interval.upper,
            });
          }
        }
      }
      const last = steps.at(-1);
      const readings = others.map((variant) => {
        const [a, b] = [last?.arms[control], last?.arms[variant]];
        return { variant, reading: a && b ? compare(a, b, experiment, lowerIsBetter) : null };
      });
      const adjusted = tracked && last !== undefined && last.arms[control] !== last.plain[control];
      const arms = variants.map((variant) => {
        const reading = readings.find((entry) => entry.variant === variant)?.reading;
        const fromControl = readings.find((entry) => entry.reading)?.reading;
        const adjustedMean = !adjusted
          ? null
          : variant === control
            ? (fromControl?.adjustedMeans?.control ?? null)
            : (reading?.adjustedMeans?.variant ?? null);
        return {
          variant,
          exposures: exposures[variant] ?? 0,
          units: unitsOf(last?.arms[variant]),
          mean: plainMean(last?.plain[variant]),
          adjustedMean,
        };
      });
      const adjustment = tracked
        ? {
            varianceReduction: adjusted && last ? varianceReduction(last, control, others) : 0,
            unitsWithHistory: Object.values(answer.steps.at(-1)?.arms ?? {}).reduce((t, m) => t + m.withHistory, 0),
            excludedUnits: answer.excludedUnits,
          }
        : null;
      return { result: { ...base, arms, overTime, adjustment, note: null }, readings, last };
    },
  );

  const metrics = computed.map((entry) => entry.result);
  // One family for the correction: every variant on every metric that has a reading.
  const family = computed.flatMap((entry, metricIndex) =>
    entry.readings.flatMap(({ variant, reading }) => (reading ? [{ metricIndex, variant, reading }] : [])),
  );
  const adjustedPValues = adjustPValues(
    family.map((entry) => entry.reading.pValue),
    experiment.correction,
  );
  family.forEach((entry, index) => {
    const result = metrics[entry.metricIndex]!;
    const lowerIsBetter = result.better === 'decrease';
    const significant = adjustedPValues[index]! < experiment.alpha;
    const improved = lowerIsBetter ? entry.reading.effect < 0 : entry.reading.effect > 0;
    const verdict: Comparison['verdict'] = !significant ? 'inconclusive' : improved ? 'better' : 'worse';
    result.comparisons.push({
      variant: entry.variant,
      differenceType: entry.reading.differenceType,
      effect: entry.reading.effect,
      interval: entry.reading.interval,
      pValue: entry.reading.pValue,
      adjustedPValue: adjustedPValues[index]!,
      verdict,
      chanceToWin: entry.reading.chanceToWin,
      risk: entry.reading.risk,
      summary: summaryOf(entry.variant, impactDisplayName(result.metricName), entry.reading, verdict),
    });
  });

  // A tracked primary metric counts users: the split check and the minimum sample count them too.
  const primaryIndex = experiment.metrics.findIndex((metric) => metric.role === 'primary');
  const primaryAnswer = answers[primaryIndex];
  const primaryLast = computed[primaryIndex]?.last;
  const byUsers = primaryAnswer !== undefined && isTracked(primaryAnswer);
  const counted = variants.map((variant) =>
    byUsers ? unitsOf(primaryLast?.plain[variant]) : (exposures[variant] ?? 0),
  );
  const total = counted.reduce((a, b) => a + b, 0);
  const sampleRatio =
    weights && total > 0
      ? (() => {
          const check = checkSampleRatio(
            counted,
            variants.map((variant) => weights[variant] ?? 0),
          );
          const weightTotal = Object.values(weights).reduce((a, b) => a + b, 0);
          return {
            pValue: check.pValue,
            mismatch: check.mismatch,
            exposures: Object.fromEntries(variants.map((variant, i) => [variant, counted[i]!])),
            expectedShares: Object.fromEntries(
              variants.map((variant) => [variant, (weights[variant] ?? 0) / weightTotal]),
            ),
          };
        })()
      : null;
  const minimumSampleReached = variants.length > 1 && counted.every((count) => count >= experiment.minimumSample);
  return {
    experiment,
    asOf,
    sampleRatio,
    minimumSampleReached,
    metrics,
    summary: overallSummary(
      experiment,
      metrics,
      sampleRatio?.mismatch ?? false,
      minimumSampleReached,
      Math.min(...counted),
      byUsers ? 'users' : 'exposures',
    ),
  };
}

function overallSummary(
  experiment: Experiment,
  metrics: readonly MetricResult[],
  mismatch: boolean,
  enough: boolean,
  fewest: number,
  unit: 'users' | 'exposures',
): string {
  if (mismatch) {
    return 'Do not read these results: the variants were not served in the configured split (sample ratio mismatch). Find out why first.';
  }
  const primary = metrics.find((metric) => metric.role === 'primary');
  const worseGuardrail = metrics
    .filter((metric) => metric.role === 'guardrail')
    .flatMap((metric) =>
      metric.comparisons.filter((c) => c.verdict === 'worse').map((c) => `${c.variant} on ${metric.metricName}`),
    );
  const winners = primary?.comparisons.filter((c) => c.verdict === 'better').map((c) => c.variant) ?? [];
  const parts: string[] = [];
  if (!enough) {
    parts.push(
      `Still collecting: the smallest variant has ${Math.max(0, Math.round(fewest)).toLocaleString('en-US')} of the ${experiment.minimumSample.toLocaleString('en-US')} ${unit} planned.`,
    );
  }
  if (winners.length > 0)
    parts.push(`${winners.join(' and ')} beat${winners.length === 1 ? 's' : ''} the control on the primary metric.`);
  else parts.push('No variant has beaten the control on the primary metric beyond chance yet.');
  if (worseGuardrail.length > 0) parts.push(`Guardrail harmed: ${worseGuardrail.join(', ')}.`);
  if (experiment.method === 'fixed-horizon' && !enough) {
    parts.push('With the fixed-horizon method, read the result once, at the planned sample.');
  }
  return parts.join(' ');
}
