import {
  impactDisplayName,
  type ComparisonReading,
  type ImpactArmsView,
  type SafeguardComparison,
} from '@bunting/contracts';
import {
  armFromTotals,
  judgeGuardrail,
  type GuardrailVerdict,
  type MeanArm,
  type ProportionArm,
  GUARDRAIL_FLOOR,
} from '@bunting/statistics';
import type { z } from 'zod';
import type { ComparisonBaseline, SafeguardRow } from './release-plan-store.ts';

export type ArmsAnswer = z.infer<typeof ImpactArmsView.answer>;
export type ArmsQuery = z.infer<typeof ImpactArmsView.request>;
/** Insights' figures for a guardrail: the metric's sides and the flag's exposures, cumulative since a time. */
export type ReadArms = (query: ArmsQuery) => Promise<ArmsAnswer>;

/** An answer the source could not give (the external source down) fails the look: it is recorded, nothing decided. */
function readable(answer: ArmsAnswer): ArmsAnswer {
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer;
}

/** The strategies of the flag environment that decide who gets the change, as the split is read from them. */
export type SplitStrategy = {
  name: string;
  disabled: boolean;
  constraints: readonly unknown[];
  segments: readonly number[];
  parameters: Record<string, string>;
};

/** The share of evaluations that get the change, where one strategy for everyone says so; otherwise null. */
export function treatmentShareOf(strategies: readonly SplitStrategy[]): number | null {
  const active = strategies.filter((strategy) => !strategy.disabled);
  if (active.length === 0) return 1;
  if (active.length > 1) return null;
  const [only] = active;
  if (only!.constraints.length > 0 || only!.segments.length > 0) return null;
  if (only!.name === 'default') return 1;
  if (only!.name !== 'flexibleRollout') return null;
  const rollout = Number(only!.parameters.rollout ?? '100');
  return Number.isFinite(rollout) ? Math.min(100, Math.max(0, rollout)) / 100 : null;
}

const minus = (now: ArmsAnswer['on'], before: ArmsAnswer['on']) => ({
  total: now.total - before.total,
  observations: now.observations === null ? null : now.observations - (before.observations ?? 0),
  squares: now.squares === null ? null : now.squares - (before.squares ?? 0),
});

const grouped = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (value: number) => `${Number((value * 100).toPrecision(3))} %`;
const figure = (value: number) => Number(value.toPrecision(3)).toString();

function effectWords(verdict: Extract<GuardrailVerdict, { result: unknown }>, metric: string, alpha: number): string {
  const { estimate, interval } = verdict.result;
  const relative = verdict.differenceType === 'relative';
  const size = relative ? percent(Math.abs(estimate)) : figure(Math.abs(estimate));
  const way = estimate >= 0 ? 'higher' : 'lower';
  const bound = interval.lower ?? interval.upper;
  const boundWords =
    bound === null
      ? ''
      : `; the ${interval.lower === null ? 'most' : 'least'} it could be is ${relative ? percent(bound) : figure(bound)} ` +
        `(${percent(1 - alpha)} confidence that holds however often it is checked)`;
  return `with the change, ${metric} is ${size} ${way}${relative ? '' : ' (absolute)'} than without it${boundWords}`;
}

/** The decision in words a release manager reads, with the figures that back it. */
function summaryOf(
  verdict: GuardrailVerdict,
  settings: SafeguardComparison,
  metric: string,
  sides: { control: number; treatment: number },
  share: number | null,
): string {
  switch (verdict.decision) {
    case 'waiting':
      return verdict.reason === 'no-control'
        ? 'Everyone here gets the change, so there is no one to compare with: nothing is decided.'
        : `Waiting for data: ${grouped(sides.treatment)} with the change and ${grouped(sides.control)} without so far; ` +
            `at least ${GUARDRAIL_FLOOR} on each side are needed to compare.`;
    case 'sample-ratio-mismatch':
      return (
        `Stopped: the split looks broken. ${grouped(sides.treatment)} evaluations got the change and ` +
        `${grouped(sides.control)} did not, where ${percent(share ?? 0)} was configured ` +
        `(p = ${verdict.sampleRatio.pValue.toExponential(1)}). Results are not read until the split is fixed.`
      );
    case 'harm':
      return `Harm: ${effectWords(verdict, metric, settings.alpha)}. p = ${verdict.result.pValue.toPrecision(2)}.`;
    case 'safe':
      return `Safe to advance: no harm seen with ${grouped(Math.min(sides.control, sides.treatment))} or more on each side; ${effectWords(verdict, metric, settings.alpha)}.`;
    case 'no-harm-yet':
      return (
        `No harm seen so far: ${effectWords(verdict, metric, settings.alpha)}. ` +
        `${grouped(Math.min(sides.control, sides.treatment))} of the ${grouped(settings.minimumSample)} needed on each side to call it safe.`
      );
  }
}

export type GuardrailLook = {
  /** The baseline to keep (null: none, the comparison starts afresh when it can). */
  baseline: ComparisonBaseline | null;
  reading: ComparisonReading | null;
};

const emptySide = (exposures: number) => ({ exposures, units: 0, mean: 0 });
const plainReading = (
  since: string,
  share: number | null,
  decision: ComparisonReading['decision'],
  summary: string,
  exposures = { control: 0, treatment: 0 },
): ComparisonReading => ({
  decision,
  summary,
  since,
  control: emptySide(exposures.control),
  treatment: emptySide(exposures.treatment),
  treatmentShare: share,
  differenceType: null,
  effect: null,
  interval: null,
  pValue: null,
  sampleRatioPValue: null,
});

/**
 * One look at a guardrail. The comparison covers only what came after a settled baseline: the first look in a
 * milestone (or with a new split, or after the flag was switched on) takes the cumulative figures, and once SDKs
 * have had `settleMs` to pick up the split they are taken again, so evaluations of the old split are not counted.
 * Every later look compares the flag's exposures (on: the change, off: the control) and the metric's series
 * labelled with the flag since then.
 */
export async function lookAtGuardrail(
  safeguard: SafeguardRow & { comparison: SafeguardComparison },
  context: {
    milestoneId: string | null;
    enabled: boolean;
    strategies: readonly SplitStrategy[];
    now: Date;
    settleMs: number;
  },
  readArms: ReadArms,
): Promise<GuardrailLook> {
  const now = context.now.toISOString();
  const share = treatmentShareOf(context.strategies);
  if (!context.enabled) {
    // The reading that turned it off stays what the guardrail shows; the comparison starts afresh when it is on.
    const last = safeguard.lastComparison;
    const acted = last?.decision === 'harm' || last?.decision === 'sample-ratio-mismatch';
    const reading = acted ? last : plainReading(now, share, 'waiting', 'The flag is off here: nothing to compare.');
    return { baseline: null, reading };
  }
  const held = safeguard.comparisonBaseline;
  const current = held !== null && held.milestoneId === context.milestoneId && held.share === share ? held : null;
  const query = {
    metricName: safeguard.metric.metricName,
    featureName: safeguard.featureName,
    environment: safeguard.environment,
    labelSelectors: safeguard.metric.labelSelectors,
    source: safeguard.metric.source ?? 'internal',
  };
  if (current === null || !current.settled) {
    // A first baseline is taken at once; the settled one once SDKs have had settleMs to serve the split.
    const waited = current === null ? 0 : Date.parse(now) - Date.parse(current.since);
    if (current !== null && waited < context.settleMs) {
      const left = Math.max(1, Math.ceil((context.settleMs - waited) / 1000));
      const summary = `Settling: SDKs are picking up the split; counting starts in about ${left} s.`;
      return { baseline: current, reading: plainReading(current.since, share, 'waiting', summary) };
    }
    const { on, off, exposures } = readable(await readArms({ ...query, since: now }));
    const settled = current !== null || context.settleMs === 0;
    const baseline = { since: now, milestoneId: context.milestoneId, share, settled, on, off, exposures };
    const summary = settled
      ? 'Counting starts now: SDKs have had time to pick up the split.'
      : `Settling: SDKs are picking up the split; counting starts in about ${Math.ceil(context.settleMs / 1000)} s.`;
    return { baseline, reading: plainReading(now, share, 'waiting', summary) };
  }
  const since = current.since;
  const answer = readable(await readArms({ ...query, since }));
  const exposures = {
    treatment: answer.exposures.yes - current.exposures.yes,
    control: answer.exposures.no - current.exposures.no,
  };
  const metric = impactDisplayName(safeguard.metric.metricName);
  if (answer.type === null || answer.type === 'gauge' || answer.series === 0) {
    const summary =
      answer.type === 'gauge'
        ? `${metric} is a gauge: a comparison needs a counter (events per evaluation) or a histogram (a mean).`
        : `No series of ${metric} carry the flag's label yet: the application passes the flag to the metric ` +
          `(the SDK's flag context) for its values to be split by who got the change.`;
    const decision = answer.type === 'gauge' ? 'unsupported' : 'waiting';
    return { baseline: current, reading: plainReading(since, share, decision, summary, exposures) };
  }
  const control = armFromTotals(answer.type, minus(answer.off, current.off), exposures.control);
  const treatment = armFromTotals(answer.type, minus(answer.on, current.on), exposures.treatment);
  const settings = {
    harm: safeguard.comparison.harm,
    alpha: safeguard.comparison.alpha,
    minimumUnits: safeguard.comparison.minimumSample,
    tuning: 5000,
  };
  const verdict = judgeGuardrail({ control, treatment, exposures, treatmentShare: share }, settings);
  const sideView = (arm: ProportionArm | MeanArm, count: number) => ({
    exposures: count,
    units: arm.n,
    mean: arm.n > 0 ? arm.sum / arm.n : 0,
  });
  const tested = 'result' in verdict ? verdict : null;
  const sampleRatio = 'sampleRatio' in verdict ? verdict.sampleRatio : null;
  return {
    baseline: current,
    reading: {
      decision: verdict.decision,
      summary: summaryOf(verdict, safeguard.comparison, metric, { control: control.n, treatment: treatment.n }, share),
      since,
      control: sideView(control, exposures.control),
      treatment: sideView(treatment, exposures.treatment),
      treatmentShare: share,
      differenceType: tested?.differenceType ?? null,
      effect: tested?.result.estimate ?? null,
      interval: tested ? { ...tested.result.interval } : null,
      pValue: tested?.result.pValue ?? null,
      sampleRatioPValue: sampleRatio?.pValue ?? null,
    },
  };
}
