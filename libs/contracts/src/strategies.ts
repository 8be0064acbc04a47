import { z } from 'zod';
import { Constraint, ConstraintInput } from './constraints.ts';
import { StrategyVariant, StrategyVariantInput } from './variants.ts';

/** Parameters are strings on the wire; scripts often send numbers or booleans, which Unleash stores as strings. */
export const StrategyParameters = z.record(
  z.string().max(100),
  z.union([z.string().max(10_000), z.number(), z.boolean()]).transform((value) => String(value)),
);

export const CreateFeatureStrategy = z.object({
  name: z.string().min(1).max(255),
  title: z.string().max(255).nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  sortOrder: z.number().int().optional(),
  constraints: z.array(ConstraintInput).max(1000).optional(),
  variants: z.array(StrategyVariantInput).max(100).optional(),
  parameters: StrategyParameters.optional(),
  segments: z.array(z.number().int().min(0)).max(100).optional(),
});
export type CreateFeatureStrategy = z.infer<typeof CreateFeatureStrategy>;

export const FeatureStrategy = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  featureName: z.string(),
  sortOrder: z.number(),
  segments: z.array(z.number()),
  constraints: z.array(Constraint),
  variants: z.array(StrategyVariant),
  parameters: z.record(z.string(), z.string()),
  milestoneId: z.string().nullable().optional(),
});
export type FeatureStrategy = z.infer<typeof FeatureStrategy>;

export const StrategySortOrder = z
  .array(z.object({ id: z.string().min(1).max(255), sortOrder: z.number().int() }))
  .max(1000);

/** A strategy definition (built in or custom), as /api/admin/strategies lists them. */
export const StrategyDefinitionParameter = z.object({
  name: z.string().min(1).max(100),
  type: z.enum(['string', 'percentage', 'list', 'number', 'boolean']),
  description: z.string().max(1000).optional(),
  required: z.boolean().optional(),
});
export const StrategyDefinition = z.object({
  name: z.string(),
  displayName: z.string().nullable(),
  description: z.string().nullable(),
  editable: z.boolean(),
  deprecated: z.boolean(),
  title: z.string().nullable().optional(),
  parameters: z.array(StrategyDefinitionParameter),
});
export type StrategyDefinition = z.infer<typeof StrategyDefinition>;
export const CreateStrategyDefinition = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-zA-Z0-9~_.-]+$/),
  title: z.string().max(255).optional(),
  description: z.string().max(1000).optional(),
  editable: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  parameters: z.array(StrategyDefinitionParameter).max(50),
});
export type CreateStrategyDefinition = z.infer<typeof CreateStrategyDefinition>;
export const UpdateStrategyDefinition = CreateStrategyDefinition.omit({ name: true }).extend({
  name: z.string().optional(),
});

// Answers: what the routes of this resource send.

/** POST /api/admin/strategies */
export const StrategyDefinitionView = StrategyDefinition;

/** GET /api/admin/strategies */
export const StrategyDefinitionList = z.object({ version: z.number(), strategies: z.array(StrategyDefinitionView) });
