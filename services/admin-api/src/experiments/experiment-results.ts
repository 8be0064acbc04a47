import {
  impactDisplayName,
  type Experiment,
  type ExperimentResults,
  type ImpactVariantsView,
} from '@bunting/contracts';
import {
  adjustPValues,
  bayesianTest,
  checkSampleRatio,
  armFromTotals,
  liftOrDifference,
  GUARDRAIL_FLOOR,
  sequentialTwoSidedTest,
  twoSidedTest,
  type DifferenceType,
  type MeanArm,
  type ProportionArm,
} from '@bunting/statistics';
import type { z } from 'zod';

export type VariantsAnswer = z.infer<typeof ImpactVariantsView.answer>;
type MetricResult = ExperimentResults['metrics'][number];
type Comparison = MetricResult['comparisons'][number];
type Totals = VariantsAnswer['steps'][number]['arms'][string];

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
  interval: { lower: number | null; upper: number | null };
  pValue: number;
  chanceToWin: number;
  risk: { control: number; variant: number };
};

/** One variant against the control: the lift (absolute while the control is at zero) and both readings. */
function compare(
  control: ProportionArm | MeanArm,
  variant: ProportionArm | MeanArm,
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
    interval: test.interval,
    pValue: test.pValue,
    chanceToWin: bayes.chanceToWin,
    risk: { control: bayes.risk.control, variant: bayes.risk.treatment },
  };
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

/**
 * An experiment's results from insights' hourly figures: per metric, each variant's exposures, units and mean, its
 * comparison with the control (frequentist, with the correction across the experiment's metrics and variants, and
 * Bayesian), the effect at the end of each hour, the split check and whether the minimum sample is in.
 */
export function experimentResults(
  experiment: Experiment,
  answers: readonly VariantsAnswer[],
  weights: Record<string, number> | null,
  asOf: string,
): ExperimentResults {
  const exposures: Record<string, number> = {};
  for (const hour of answers[0]?.steps ?? []) {
    for (const [variant, count] of Object.entries(hour.exposures))
      exposures[variant] = (exposures[variant] ?? 0) + count;
  }
  const variants = weights
    ? Object.keys(weights)
    : Object.keys(exposures).filter((name) => name !== 'disabled' && name !== 'enabled');
  const others = variants.filter((name) => name !== experiment.controlVariant);
  const computed = experiment.metrics.map((metric, index): { result: MetricResult; readings: Readings } => {
    const answer = answers[index];
    const type = answer?.type ?? null;
    const base = { ...metric, type, arms: [], comparisons: [] as Comparison[], overTime: [] };
    if (!answer || type === null || type === 'gauge') {
      const note =
        type === 'gauge'
          ? 'A gauge cannot be split by variant: use a counter or a histogram.'
          : `No series of ${metric.metricName} carry the flag's label yet.`;
      return { result: { ...base, note }, readings: [] };
    }
    const running: Record<string, Totals> = {};
    const seen: Record<string, number> = {};
    const overTime: MetricResult['overTime'] = [];
    const lowerIsBetter = metric.better === 'decrease';
    for (const hour of answer.steps) {
      for (const [variant, totals] of Object.entries(hour.arms))
        running[variant] = add(running[variant] ?? EMPTY, totals);
      for (const [variant, count] of Object.entries(hour.exposures)) seen[variant] = (seen[variant] ?? 0) + count;
      const control = armFromTotals(
        type,
        running[experiment.controlVariant] ?? EMPTY,
        seen[experiment.controlVariant] ?? 0,
      );
      for (const variant of others) {
        const reading = compare(
          control,
          armFromTotals(type, running[variant] ?? EMPTY, seen[variant] ?? 0),
          experiment,
          lowerIsBetter,
        );
        if (reading) {
          overTime.push({
            at: hour.at,
            variant,
            effect: reading.effect,
            lower: reading.interval.lower,
            upper: reading.interval.upper,
          });
        }
      }
    }
    const armFor = (variant: string) => armFromTotals(type, running[variant] ?? EMPTY, seen[variant] ?? 0);
    const arms = variants.map((variant) => {
      const arm = armFor(variant);
      return { variant, exposures: seen[variant] ?? 0, units: arm.n, mean: arm.n > 0 ? arm.sum / arm.n : 0 };
    });
    const readings = others.map((variant) => ({
      variant,
      reading: compare(armFor(experiment.controlVariant), armFor(variant), experiment, lowerIsBetter),
    }));
    return { result: { ...base, arms, overTime, note: null }, readings };
  });

  const metrics = computed.map((entry) => entry.result);
  // One family for the correction: every variant on every metric that has a reading.
  const family = computed.flatMap((entry, metricIndex) =>
    entry.readings.flatMap(({ variant, reading }) => (reading ? [{ metricIndex, variant, reading }] : [])),
  );
  const adjusted = adjustPValues(
    family.map((entry) => entry.reading.pValue),
    experiment.correction,
  );
  family.forEach((entry, index) => {
    const result = metrics[entry.metricIndex]!;
    const lowerIsBetter = result.better === 'decrease';
    const significant = adjusted[index]! < experiment.alpha;
    const improved = lowerIsBetter ? entry.reading.effect < 0 : entry.reading.effect > 0;
    const verdict: Comparison['verdict'] = !significant ? 'inconclusive' : improved ? 'better' : 'worse';
    result.comparisons.push({
      variant: entry.variant,
      differenceType: entry.reading.differenceType,
      effect: entry.reading.effect,
      interval: entry.reading.interval,
      pValue: entry.reading.pValue,
      adjustedPValue: adjusted[index]!,
      verdict,
      chanceToWin: entry.reading.chanceToWin,
      risk: entry.reading.risk,
      summary: summaryOf(entry.variant, impactDisplayName(result.metricName), entry.reading, verdict),
    });
  });

  const counted = variants.map((variant) => exposures[variant] ?? 0);
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
    ),
  };
}

function overallSummary(
  experiment: Experiment,
  metrics: readonly MetricResult[],
  mismatch: boolean,
  enough: boolean,
  fewest: number,
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
      `Still collecting: the smallest variant has ${Math.max(0, Math.round(fewest)).toLocaleString('en-US')} of the ${experiment.minimumSample.toLocaleString('en-US')} exposures planned.`,
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
