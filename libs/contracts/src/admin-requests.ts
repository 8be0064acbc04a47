import { z } from 'zod';

/** Instance settings an admin switches: maintenance mode, the frontend API's CORS origins. */
export const MaintenanceSettings = z.object({ enabled: z.boolean() });
export const SetCors = z.object({ frontendApiOrigins: z.array(z.string().min(1).max(500)).max(100) });

/** featureLifecycleCompletedSchema: a flag marked completed, and whether it was kept (with which value) or discarded. */
export const FeatureLifecycleCompleted = z.object({
  status: z.enum(['kept', 'discarded']),
  statusValue: z.string().max(255).optional(),
});

/** updateFeatureStrategySegmentsSchema: the segments one strategy uses. */
export const UpdateStrategySegments = z.object({
  projectId: z.string().min(1).max(255),
  strategyId: z.string().min(1).max(255),
  environmentId: z.string().min(1).max(255),
  segmentIds: z.array(z.number().int().min(0)).max(100),
});

/** tokenStringListSchema: the SDK tokens Unleash Edge asks about. */
export const EdgeTokenList = z.object({ tokens: z.array(z.string().max(1000)).max(1000) });

/** idSchema of a password reset: a user by id, email or username. */
export const ResetPasswordRequest = z.object({ id: z.string().min(1).max(255) });

/** emailSchema: where a reset link is mailed, when an account has that address. */
export const ResetPasswordEmail = z.object({ email: z.string().trim().min(1).max(255) });

/** idsSchema: users to delete when inactive. */
export const UserIds = z.object({ ids: z.array(z.number().int()).max(10_000) });
