import { z } from 'zod';

export const VariantPayload = z.object({
  type: z.enum(['json', 'csv', 'string', 'number']),
  value: z.string().max(100_000),
});
export type VariantPayload = z.infer<typeof VariantPayload>;

export const WeightType = z.enum(['variable', 'fix']);

const VariantName = z.string().min(1).max(255);

export const StrategyVariantInput = z.object({
  name: VariantName,
  weight: z.number().int().min(0).max(1000),
  weightType: WeightType,
  stickiness: z.string().min(1).max(100),
  payload: VariantPayload.optional(),
});
export type StrategyVariantInput = z.infer<typeof StrategyVariantInput>;
export const StrategyVariant = StrategyVariantInput;
export type StrategyVariant = StrategyVariantInput;

export const VariantOverride = z.object({
  contextName: z.string().min(1).max(100),
  values: z.array(z.string().max(100)).max(1000),
});
export type VariantOverride = z.infer<typeof VariantOverride>;

export const VariantInput = z.object({
  name: VariantName,
  weight: z.number().min(0).max(1000),
  weightType: WeightType.optional(),
  stickiness: z.string().min(1).max(100).optional(),
  payload: VariantPayload.optional(),
  overrides: z.array(VariantOverride).max(100).optional(),
});
export type VariantInput = z.infer<typeof VariantInput>;

/** A feature-environment variant as stored: weights adjusted to total 1000, sorted by name. */
export const Variant = z.object({
  name: z.string(),
  weight: z.number(),
  weightType: WeightType,
  stickiness: z.string(),
  payload: VariantPayload.optional(),
  overrides: z.array(VariantOverride).optional(),
});
export type Variant = z.infer<typeof Variant>;

export const FeatureVariants = z.object({ version: z.literal(1), variants: z.array(Variant) });

export const PushVariants = z.object({
  variants: z.array(VariantInput).max(100),
  environments: z.array(z.string()).min(1),
});
