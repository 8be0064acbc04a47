import { z } from 'zod';
import { ErrorBody } from './errors.ts';

/** One flag's OFREP answer: its value (true/false, or the variant's payload), why, and which variant. */
export const OfrepEvaluation = z.object({
  key: z.string(),
  value: z.unknown().optional(),
  reason: z.string(),
  variant: z.string(),
  metadata: z.record(z.string(), z.union([z.string(), z.boolean()])),
});

/** A flag OFREP could not evaluate (no targeting key for a userId rollout, a payload that does not parse). */
export const OfrepFlagError = z.object({ key: z.string(), errorCode: z.string(), errorDetails: z.string() });

/** POST /ofrep/v1/evaluate/flags/{key}: one flag, not to be cached by the provider. */
export const OfrepSingleAnswer = OfrepEvaluation.extend({ cacheable: z.boolean() });

/** POST /ofrep/v1/evaluate/flags: every flag the token sees. */
/** OFREP ADR-0008: where a static-context provider hears that it should fetch the bulk evaluation again. */
export const OfrepEventStream = z.object({
  type: z.literal('sse'),
  url: z.string(),
  inactivityDelaySec: z.number().int().min(0).optional(),
});
export const OfrepBulkAnswer = z.object({
  flags: z.array(z.union([OfrepEvaluation, OfrepFlagError])),
  eventStreams: z.array(OfrepEventStream).optional(),
});

/** OFREP's refusals carry its error code beside the spec's error shape. */
export const OfrepErrorBody = ErrorBody.extend({
  key: z.string().optional(),
  errorCode: z.string().optional(),
  errorDetails: z.string().optional(),
});
