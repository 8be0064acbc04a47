import type { VariantPayload } from '@bunting/contracts';
import type { PreparedContext } from './context.ts';
import { HashPrefix, VARIANT_SEED, bucketWithPrefix, type HashKey } from './hashing.ts';

/** A variant definition as the engine keeps it (feature-environment or strategy variant). */
export type VariantDefinition = {
  name: string;
  weight: number;
  stickiness?: string | undefined;
  payload?: VariantPayload | undefined;
  overrides?: { contextName: string; values: string[] }[] | undefined;
};

export type Random = () => number;

function randomSeed(random: Random): string {
  return String(Math.round(random() * 100_000));
}

function override(variants: readonly VariantDefinition[], context: PreparedContext): VariantDefinition | undefined {
  for (const variant of variants) {
    for (const item of variant.overrides ?? []) {
      const value = context.value(item.contextName);
      if (value !== undefined && item.values.includes(value)) return variant;
    }
  }
  return undefined;
}

/**
 * Variant selection compiled as the SDKs do it: an override wins; otherwise hash the stickiness value into
 * 1..total weight and walk the variants in stored order, skipping weight 0, until the running sum reaches the
 * target. Everything that does not depend on the request is worked out here, once, and the answer for each
 * variant is made here too, so selecting allocates nothing. A plain object of one shape, read by one
 * function (selectVariant), keeps the per-flag hot path monomorphic.
 */
export class VariantPlan<T> {
  readonly variants: readonly VariantDefinition[];
  readonly answers: readonly T[];
  readonly weights: readonly number[];
  readonly total: number;
  /** The hash state of "<groupId>:" (see HashPrefix). */
  readonly prefix: HashPrefix;
  /** Default stickiness (userId, sessionId, remoteAddress), else the named field. */
  readonly byDefault: boolean;
  readonly stickiness: string;
  readonly hasOverrides: boolean;
  readonly random: Random;

  constructor(
    variants: readonly VariantDefinition[],
    groupId: string,
    stickiness: string | undefined,
    random: Random,
    answers: readonly T[],
  ) {
    this.variants = variants;
    this.answers = answers;
    this.weights = variants.map((variant) => variant.weight);
    this.total = variants.reduce((sum, variant) => sum + variant.weight, 0);
    this.prefix = new HashPrefix(`${groupId}:`, VARIANT_SEED);
    this.byDefault = !stickiness || stickiness === 'default';
    this.stickiness = stickiness ?? 'default';
    this.hasOverrides = variants.some((variant) => (variant.overrides?.length ?? 0) > 0);
    this.random = random;
  }
}

/** The key of the value the variant hash is taken of: default stickiness tries userId, sessionId, remoteAddress. */
function seedKey<T>(plan: VariantPlan<T>, context: PreparedContext): HashKey {
  // The SDK takes the first of those that is a non-empty string, else a random seed.
  if (plan.byDefault) return context.defaultVariantKey() ?? context.hashKey(randomSeed(plan.random));
  return context.hashKey(context.fields.get(plan.stickiness) || randomSeed(plan.random));
}

export function selectVariant<T>(plan: VariantPlan<T>, context: PreparedContext): T | undefined {
  if (plan.total <= 0) return undefined;
  if (plan.hasOverrides) {
    const forced = override(plan.variants, context);
    if (forced) return plan.answers[plan.variants.indexOf(forced)];
  }
  return answerAtBucket(plan.weights, plan.answers, bucketWithPrefix(plan.prefix, seedKey(plan, context), plan.total));
}

/** Walks the variants in stored order, skipping weight 0, until the running sum of weights reaches the bucket. */
export function answerAtBucket<T>(weights: readonly number[], answers: readonly T[], bucket: number): T | undefined {
  let counter = 0;
  for (let index = 0; index < weights.length; index += 1) {
    const weight = weights[index]!;
    if (weight === 0) continue;
    counter += weight;
    if (counter >= bucket) return answers[index];
  }
  return undefined;
}
