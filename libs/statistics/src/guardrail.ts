import type { MeanArm, ProportionArm } from './arms.ts';
import type { DifferenceType } from './effect.ts';
import { liftOrDifference } from './metric-arms.ts';
import { sequentialHarmTest, type FrequentistResult, type HarmDirection } from './frequentist.ts';
import { checkSampleRatio, SRM_THRESHOLD, type SampleRatioCheck } from './srm.ts';

/** Below this many units in an arm no test is read: a variance from a handful of units says nothing. */
export const GUARDRAIL_FLOOR = 30;

export interface GuardrailSettings {
  readonly harm: HarmDirection;
  /** The rate of false alarms allowed over the whole watch, however often it looks. */
  readonly alpha: number;
  /** Units each arm needs before the comparison may call the change safe (it may call harm earlier). */
  readonly minimumUnits: number;
  /** The total units at which the always-valid interval is tightest (GrowthBook's tuning parameter). */
  readonly tuning: number;
}

export interface GuardrailInput {
  readonly control: ProportionArm | MeanArm;
  readonly treatment: ProportionArm | MeanArm;
  /**
   * Exposures of each arm and the treatment's configured share (0 to 1) of them, for the sample-ratio check; a null
   * share (a split that cannot be read off the configuration) leaves the check out.
   */
  readonly exposures: { readonly control: number; readonly treatment: number };
  readonly treatmentShare: number | null;
}

/** What the comparison concludes at one look, with the figures that back it. */
export type GuardrailVerdict =
  | { readonly decision: 'waiting'; readonly reason: 'no-control' | 'too-few-units' }
  | { readonly decision: 'sample-ratio-mismatch'; readonly sampleRatio: SampleRatioCheck }
  | {
      readonly decision: 'harm' | 'no-harm-yet' | 'safe';
      readonly differenceType: DifferenceType;
      readonly result: FrequentistResult;
      readonly sampleRatio: SampleRatioCheck | null;
    };

/**
 * One look at a guardrail: the split is checked first (a broken split means the data cannot be trusted, so nothing is
 * decided on it), then the one-sided always-valid harm test. The lift is relative to the control's mean; with a
 * control at zero (no errors at all yet) it falls back to the absolute difference. Harm is called as soon as the
 * interval's bound crosses zero; "safe" needs the minimum sample in both arms as well.
 */
export function judgeGuardrail(input: GuardrailInput, settings: GuardrailSettings): GuardrailVerdict {
  const { control, treatment } = input;
  if (input.treatmentShare !== null && (input.treatmentShare <= 0 || input.treatmentShare >= 1)) {
    return { decision: 'waiting', reason: 'no-control' };
  }
  let sampleRatio: SampleRatioCheck | null = null;
  if (input.treatmentShare !== null) {
    sampleRatio = checkSampleRatio(
      [input.exposures.control, input.exposures.treatment],
      [1 - input.treatmentShare, input.treatmentShare],
      SRM_THRESHOLD,
    );
    if (sampleRatio.mismatch) return { decision: 'sample-ratio-mismatch', sampleRatio };
  }
  if (control.n < GUARDRAIL_FLOOR || treatment.n < GUARDRAIL_FLOOR) {
    return { decision: 'waiting', reason: 'too-few-units' };
  }
  const { differenceType, effect } = liftOrDifference(control, treatment);
  const result = sequentialHarmTest(effect, settings.harm, settings.alpha, settings.tuning);
  const harmed = result.error === undefined && result.pValue < settings.alpha;
  if (harmed) return { decision: 'harm', differenceType, result, sampleRatio };
  const enough = control.n >= settings.minimumUnits && treatment.n >= settings.minimumUnits;
  // An effect that could not be estimated is no evidence either way, except no events at all where events are harm.
  const noEvents = control.sum === 0 && treatment.sum === 0 && settings.harm === 'increase';
  const informative = result.error === undefined || noEvents;
  return { decision: enough && informative ? 'safe' : 'no-harm-yet', differenceType, result, sampleRatio };
}
