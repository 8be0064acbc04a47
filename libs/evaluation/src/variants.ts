import type { VariantPayload } from '@bunting/contracts';
import { contextValue, type Context } from './context.ts';
import { VARIANT_SEED, normalizedValue } from './hashing.ts';

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
function seedFor(context: Context, stickiness: string | undefined, random: Random): string {
  if (!stickiness || stickiness === 'default') {
    for (const field of ['userId', 'sessionId', 'remoteAddress']) {
      const value = context[field];
      if (value !== undefined && value !== null && value !== '') return String(value);
    }
    return randomSeed(random);
  }
  const value = contextValue(context, stickiness);
  return value === undefined ? randomSeed(random) : String(value);
}

function override(variants: readonly VariantDefinition[], context: Context): VariantDefinition | undefined {
  for (const variant of variants) {
    for (const item of variant.overrides ?? []) {
      const value = contextValue(context, item.contextName);
      if (value !== undefined && item.values.includes(String(value))) return variant;
    }
  }
  return undefined;
}

/**
 * Picks a variant as the SDKs do: an override wins; otherwise hash the stickiness value into 1..total weight
 * and walk the variants in stored order, skipping weight 0, until the running sum reaches the target.
 */
export function selectVariant(
  variants: readonly VariantDefinition[],
  groupId: string,
  stickiness: string | undefined,
  context: Context,
  random: Random,
): VariantDefinition | undefined {
  const total = variants.reduce((sum, variant) => sum + variant.weight, 0);
  if (total <= 0) return undefined;
  const forced = override(variants, context);
  if (forced) return forced;
  const target = normalizedValue(seedFor(context, stickiness, random), groupId, total, VARIANT_SEED);
  let counter = 0;
  for (const variant of variants) {
    if (variant.weight === 0) continue;
    counter += variant.weight;
    if (counter >= target) return variant;
  }
  return undefined;
}
