import { z } from 'zod';
import { Constraint, ConstraintInput } from './constraints.ts';

export const UpsertSegment = z.object({
  name: z.string().min(1).max(255),
  description: z.string().max(2000).nullable().optional(),
  project: z.string().max(100).nullable().optional(),
  constraints: z.array(ConstraintInput).max(1000),
});
export type UpsertSegment = z.infer<typeof UpsertSegment>;

export const Segment = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable(),
  constraints: z.array(Constraint),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  usedInFeatures: z.number().int().nullable().optional(),
  usedInProjects: z.number().int().nullable().optional(),
});
export type Segment = z.infer<typeof Segment>;

// Answers: what the routes of this resource send.

/** GET /api/admin/segments */
export const SegmentList = z.object({ segments: z.array(Segment) });

/** A strategy that uses a segment (or a context field), with where it is. */
export const StrategyUse = z.object({
  id: z.string(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
});

/** GET /api/admin/segments/:id/strategies */
export const SegmentStrategies = z.object({
  strategies: z.array(StrategyUse).readonly(),
  changeRequestStrategies: z.array(z.never()),
});
