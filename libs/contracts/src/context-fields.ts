import { z } from 'zod';
import { StrategyUse } from './segments.ts';
import { UrlFriendlyName } from './common.ts';

export const LegalValue = z.object({
  value: z.string().min(1).max(100),
  description: z.string().max(1000).optional(),
});
export type LegalValue = z.infer<typeof LegalValue>;

export const CreateContextField = z.object({
  name: UrlFriendlyName,
  description: z.string().max(1000).nullable().optional(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  legalValues: z.array(LegalValue).max(1000).optional(),
  project: z.string().max(100).optional(),
});
export type CreateContextField = z.infer<typeof CreateContextField>;
export const UpdateContextField = CreateContextField.omit({ name: true }).extend({ name: z.string().optional() });

export const ContextField = z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: z.string().nullable(),
  legalValues: z.array(LegalValue),
  project: z.string().optional(),
  usedInFeatures: z.number().int().nullable().optional(),
  usedInProjects: z.number().int().nullable().optional(),
});
export type ContextField = z.infer<typeof ContextField>;

// Answers: what the routes of this resource send.

/** GET ${base}/:contextField/strategies */
export const StrategiesUsing = z.object({ strategies: z.array(StrategyUse).readonly() });
