import { z } from 'zod';

/**
 * One outcome an application tracked (OpenFeature's `track`): its name, the evaluation context of the user, an
 * optional value (revenue, a duration; 1 when left out) and the flags whose answer to that user it is split by.
 */
export const TrackEvent = z
  .object({
    name: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'a metric name: letters, digits and _, not starting with a digit'),
    context: z.record(z.string(), z.unknown()).default({}),
    value: z.number().finite().optional(),
    flags: z.array(z.string().min(1).max(255)).min(1).max(10),
  })
  .strict();
export type TrackEvent = z.infer<typeof TrackEvent>;

/** POST /api/frontend/track: a batch of tracked outcomes, from an OpenFeature provider (server or web). */
export const TrackPost = z
  .object({
    appName: z.string().min(1).max(255).optional(),
    events: z.array(TrackEvent).min(1).max(500),
  })
  .strict();
export type TrackPost = z.infer<typeof TrackPost>;
