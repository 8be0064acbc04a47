import type { Variant, VariantInput } from '@bunting/contracts';
import { ValidationError } from '@bunting/platform';

type Weighted = { name: string; weight: number; weightType?: 'variable' | 'fix' | undefined };

/**
 * Unleash's rule on write, for feature-environment and strategy variants alike: at least one variable variant;
 * fixed weights total at most 1000; what remains is split evenly over the variable variants, the remainder
 * going +1 to the first variable variants in the order given; then the list is sorted by name (locale-aware),
 * which is the order SDKs walk when hashing.
 */
export function distributeWeights<T extends Weighted>(
  variants: readonly T[],
  field = 'variants',
): (T & { weightType: 'variable' | 'fix' })[] {
  if (variants.length === 0) return [];
  const names = new Set<string>();
  for (const variant of variants) {
    if (names.has(variant.name))
      throw ValidationError.field(field, `variant names must be unique; "${variant.name}" appears twice`);
    names.add(variant.name);
  }
  const typed = variants.map((variant) => ({ ...variant, weightType: variant.weightType ?? 'variable' }));
  const variable = typed.filter((variant) => variant.weightType === 'variable');
  if (variable.length === 0) throw ValidationError.field(field, 'there must be at least one "variable" variant');
  const fixedTotal = typed
    .filter((variant) => variant.weightType === 'fix')
    .reduce((sum, variant) => sum + variant.weight, 0);
  if (fixedTotal > 1000) throw ValidationError.field(field, 'the fixed weights total more than 1000 (100%)');
  const remaining = 1000 - fixedTotal;
  const share = Math.floor(remaining / variable.length);
  let remainder = remaining - share * variable.length;
  for (const variant of variable) {
    variant.weight = share + (remainder > 0 ? 1 : 0);
    if (remainder > 0) remainder -= 1;
  }
  return typed.sort((a, b) => a.name.localeCompare(b.name));
}

/** Feature-environment variants: defaults filled in (stickiness default), weights distributed. */
export function normalizeEnvironmentVariants(input: readonly VariantInput[]): Variant[] {
  const withDefaults = input.map((variant) => {
    const normalized: Variant = {
      name: variant.name,
      weight: variant.weight,
      weightType: variant.weightType ?? 'variable',
      stickiness: variant.stickiness ?? 'default',
    };
    if (variant.payload) normalized.payload = variant.payload;
    if (variant.overrides && variant.overrides.length > 0) normalized.overrides = variant.overrides;
    return normalized;
  });
  return distributeWeights(withDefaults);
}
