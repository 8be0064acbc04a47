import type { VariantPayload } from '@bunting/contracts';
import type { PreparedContext } from './context.ts';
import { VARIANT_SEED, prefixedMurmur3 } from './hashing.ts';

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

/** The value the variant hash is taken of: default stickiness tries userId, sessionId, remoteAddress. */
function seedFor(context: PreparedContext, stickiness: string | undefined, random: Random): string {
  if (!stickiness || stickiness === 'default') {
    const { userId, sessionId, remoteAddress } = context.raw;
    const value = userId || sessionId || remoteAddress;
    return value ? String(value) : randomSeed(random);
  }
  const value = context.value(stickiness);
  return value === undefined ? randomSeed(random) : String(value);
}

function override(variants: readonly VariantDefinition[], context: PreparedContext): VariantDefinition | undefined {
  for (const variant of variants) {
    for (const item of variant.overrides ?? []) {
      const value = context.value(item.contextName);
      if (value !== undefined && item.values.includes(String(value))) return variant;
    }
  }
  return undefined;
}

/**
 * Compiles variant selection as the SDKs do it: an override wins; otherwise hash the stickiness value into
 * 1..total weight and walk the variants in stored order, skipping weight 0, until the running sum reaches the
 * target. Everything that does not depend on the request is worked out here, once; the answer given for
 * each variant is made here too, so selecting allocates nothing.
 */
export function compileVariantSelection<T>(
  variants: readonly VariantDefinition[],
  groupId: string,
  stickiness: string | undefined,
  random: Random,
  answers: readonly T[],
): (context: PreparedContext) => T | undefined {
  const total = variants.reduce((sum, variant) => sum + variant.weight, 0);
  if (total <= 0) return () => undefined;
  const answerOf = new Map(variants.map((variant, index) => [variant, answers[index]!]));
  const hash = prefixedMurmur3(`${groupId}:`, VARIANT_SEED);
  const hasOverrides = variants.some((variant) => (variant.overrides?.length ?? 0) > 0);
  return (context) => {
    if (hasOverrides) {
      const forced = override(variants, context);
      if (forced) return answerOf.get(forced);
    }
    const target = (hash(seedFor(context, stickiness, random)) % total) + 1;
    let counter = 0;
    for (let index = 0; index < variants.length; index += 1) {
      const weight = variants[index]!.weight;
      if (weight === 0) continue;
      counter += weight;
      if (counter >= target) return answers[index];
    }
    return undefined;
  };
}
