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

/**
 * A user was answered by these flags (an OpenFeature provider sends one the first time it evaluates a flag for a
 * user): experiments that count users count this user in the variant answered, with or without outcomes.
 */
export const TrackExposure = z
  .object({
    context: z.record(z.string(), z.unknown()),
    flags: z.array(z.string().min(1).max(255)).min(1).max(10),
  })
  .strict();
export type TrackExposure = z.infer<typeof TrackExposure>;

/** POST /api/frontend/track: a batch of tracked outcomes and exposures, from an OpenFeature provider. */
export const TrackPost = z
  .object({
    appName: z.string().min(1).max(255).optional(),
    events: z.array(TrackEvent).max(500).default([]),
    exposures: z.array(TrackExposure).max(500).default([]),
  })
  .strict()
  .refine((post) => post.events.length + post.exposures.length > 0, {
    message: 'send at least one event or exposure',
    path: ['events'],
  });
export type TrackPost = z.infer<typeof TrackPost>;

/**
 * One user's tracked outcomes of one metric in one post, with what the named flags answered that user: what
 * experiments that count users (not evaluations) and adjust for the period before (CUPED) are computed from.
 */
/** The metric name a user's exposure is kept under: no tracked metric can have it (names start with a letter or _). */
export const EXPOSURE = '';

export const TrackedUnit = z.object({
  /** The user (targetingKey, userId or sessionId of the event's context). */
  unit: z.string().min(1).max(255),
  /** The tracked metric's name, or EXPOSURE for a user only answered. */
  metric: z.string().max(200),
  value: z.number().finite(),
  events: z.number().int().min(1),
  /** Flag name to the answer's label: the variant, or enabled/disabled without one. */
  answers: z.record(z.string(), z.string()),
});
export type TrackedUnit = z.infer<typeof TrackedUnit>;

export const TrackedUnits = z.object({
  appName: z.string(),
  units: z.array(TrackedUnit).max(5000),
});
export type TrackedUnits = z.infer<typeof TrackedUnits>;
