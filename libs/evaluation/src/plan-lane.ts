import type { ConstraintList } from './constraints.ts';
import type { PreparedContext } from './context.ts';
import { evaluateFeature, type CompiledFeature } from './engine.ts';
import { bucketOf, percentBucketOf, signedHashAfter } from './hashing.ts';

/** What a lane's flag is: off whatever the context, a simple plan, or a flag for the general path. */
const OFF = 0;
const SIMPLE = 1;
const GENERAL = 2;

// A flag's numbers in the lane, FIELDS of them from index * FIELDS.
const MODE = 0;
const CONSTRAINTS = 1;
const ALWAYS = 2;
const ROLLOUT_STATE = 3;
const ROLLOUT_PENDING = 4;
const ROLLOUT_OFFSET = 5;
const ROLLOUT_LENGTH = 6;
const HAS_VARIANTS = 7;
const VARIANT_STATE = 8;
const VARIANT_PENDING = 9;
const VARIANT_OFFSET = 10;
const VARIANT_LENGTH = 11;
const FIRST_WEIGHT = 12;
const WEIGHT_COUNT = 13;
const FIELDS = 16;

/**
 * Many flags' simple plans packed into typed arrays, one flag after the other, so that answering a request for
 * all of them walks a few kilobytes of numbers instead of an object graph per flag spread over the heap (under
 * load, the SDK edge's loop over 200 flags took half again the time in the server that it took alone).
 * `slotsOf` gives each flag's answer as its slot (see Evaluation): -1 off, 0 on without a variant, 1.. a variant.
 */
export class PlanLane {
  readonly size: number;
  private readonly features: readonly CompiledFeature[];
  private readonly numbers: Int32Array;
  /**
   * Each rollout's percentage as the highest bucket inside it: an integer bucket is over a percentage exactly when
   * it is over the percentage's floor (a simple plan's percentage is above 0; one of 100 or more lets every bucket in).
   */
  private readonly cutoffs: Int32Array;
  private readonly totals: Float64Array;
  private readonly weights: Float64Array;
  /** The slot of the answer at the same place in `weights`. */
  private readonly answerSlots: Int32Array;
  /** Each flag's constraints (null for none), kept by the index in its CONSTRAINTS field. */
  private readonly constraints: (ConstraintList | null)[];

  constructor(features: readonly CompiledFeature[]) {
    this.features = features;
    const flags = features.map((feature) => feature.plan);
    this.size = flags.length;
    this.numbers = new Int32Array(flags.length * FIELDS);
    this.cutoffs = new Int32Array(flags.length);
    this.totals = new Float64Array(flags.length);
    const weights: number[] = [];
    const answerSlots: number[] = [];
    this.constraints = [];
    for (let index = 0; index < flags.length; index += 1) {
      const flag = flags[index]!;
      const at = index * FIELDS;
      const plan = flag.simple;
      if (!flag.enabled) continue; // MODE stays OFF
      if (plan === null || plan.plain.slot !== 0) {
        this.numbers[at + MODE] = GENERAL;
        continue;
      }
      this.numbers[at + MODE] = SIMPLE;
      this.numbers[at + CONSTRAINTS] = this.constraints.length;
      this.constraints.push(plan.constraints);
      this.numbers[at + ALWAYS] = plan.always ? 1 : 0;
      this.cutoffs[index] = plan.percent >= 100 ? 100 : Math.floor(plan.percent);
      this.numbers[at + ROLLOUT_STATE] = plan.rolloutState;
      this.numbers[at + ROLLOUT_PENDING] = plan.rolloutPending;
      this.numbers[at + ROLLOUT_OFFSET] = plan.rolloutOffset;
      this.numbers[at + ROLLOUT_LENGTH] = plan.rolloutLength;
      this.numbers[at + HAS_VARIANTS] = plan.hasVariants ? 1 : 0;
      this.numbers[at + VARIANT_STATE] = plan.variantState;
      this.numbers[at + VARIANT_PENDING] = plan.variantPending;
      this.numbers[at + VARIANT_OFFSET] = plan.variantOffset;
      this.numbers[at + VARIANT_LENGTH] = plan.variantLength;
      this.totals[index] = plan.total;
      this.numbers[at + FIRST_WEIGHT] = weights.length;
      this.numbers[at + WEIGHT_COUNT] = plan.weights.length;
      for (let variant = 0; variant < plan.weights.length; variant += 1) {
        weights.push(plan.weights[variant]!);
        answerSlots.push(plan.answers[variant]!.slot);
      }
    }
    this.weights = Float64Array.from(weights);
    this.answerSlots = Int32Array.from(answerSlots);
  }

  /** Writes each flag's slot for the context into `out` (at least `size` long), as evaluateFeature answers. */
  slotsOf(context: PreparedContext, out: Int32Array): void {
    const numbers = this.numbers;
    const constraints = this.constraints;
    const cutoffs = this.cutoffs;
    const rolloutKey = context.defaultRolloutKey();
    const variantKey = context.defaultVariantKey();
    for (let index = 0; index < this.size; index += 1) {
      const at = index * FIELDS;
      const mode = numbers[at + MODE]!;
      if (mode === OFF) {
        out[index] = -1;
        continue;
      }
      if (mode === GENERAL) {
        out[index] = this.general(index, context);
        continue;
      }
      const list = constraints[numbers[at + CONSTRAINTS]!]!;
      if (list !== null && !list.holds(context)) {
        out[index] = -1;
        continue;
      }
      if (numbers[at + ALWAYS] === 0) {
        if (rolloutKey === null) {
          out[index] = this.general(index, context);
          continue;
        }
        const bucket = percentBucketOf(
          signedHashAfter(
            numbers[at + ROLLOUT_STATE]!,
            numbers[at + ROLLOUT_PENDING]!,
            numbers[at + ROLLOUT_OFFSET]!,
            numbers[at + ROLLOUT_LENGTH]!,
            rolloutKey,
          ),
        );
        // -1 past the cutoff, 0 within: without a branch, which a 50 % rollout mispredicts every other flag.
        const past = (cutoffs[index]! - bucket) >> 31;
        if (numbers[at + HAS_VARIANTS] === 0) {
          out[index] = past;
          continue;
        }
        if (past !== 0) {
          out[index] = -1;
          continue;
        }
      }
      if (numbers[at + HAS_VARIANTS] === 0) {
        out[index] = 0;
        continue;
      }
      if (variantKey === null) {
        out[index] = this.general(index, context);
        continue;
      }
      const bucket = bucketOf(
        signedHashAfter(
          numbers[at + VARIANT_STATE]!,
          numbers[at + VARIANT_PENDING]!,
          numbers[at + VARIANT_OFFSET]!,
          numbers[at + VARIANT_LENGTH]!,
          variantKey,
        ),
        this.totals[index]!,
      );
      out[index] = this.slotAtBucket(numbers[at + FIRST_WEIGHT]!, numbers[at + WEIGHT_COUNT]!, bucket);
    }
  }

  /** A flag the lane cannot answer, on the general path. */
  private general(index: number, context: PreparedContext): number {
    return evaluateFeature(this.features[index]!, context).slot;
  }

  /** As answerAtBucket: the variants in stored order, skipping weight 0, until the running sum reaches the bucket. */
  private slotAtBucket(first: number, count: number, bucket: number): number {
    const weights = this.weights;
    let counter = 0;
    for (let index = first; index < first + count; index += 1) {
      const weight = weights[index]!;
      if (weight === 0) continue;
      counter += weight;
      if (counter >= bucket) return this.answerSlots[index]!;
    }
    return 0;
  }
}
