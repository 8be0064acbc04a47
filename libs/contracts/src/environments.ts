import { z } from 'zod';

export const ENVIRONMENT_NAME = /^[a-zA-Z0-9~_.-]+$/;

export const EnvironmentName = z.string().min(1).max(100).regex(ENVIRONMENT_NAME, 'must match ^[a-zA-Z0-9~_.-]+$');

export const CreateEnvironment = z.object({
  name: EnvironmentName,
  type: z.string().trim().min(1).max(100),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
});
export type CreateEnvironment = z.infer<typeof CreateEnvironment>;

export const UpdateEnvironment = z.object({
  type: z.string().trim().min(1).max(100).optional(),
  sortOrder: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
});

export const CloneEnvironment = z.object({
  name: EnvironmentName,
  type: z.string().trim().min(1).max(100),
  projects: z.array(z.string()).optional(),
  clonePermissions: z.boolean().optional(),
});

export const EnvironmentSortOrder = z.record(z.string(), z.number().int());

export const Environment = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number().int(),
  projectCount: z.number().int().nullable(),
  apiTokenCount: z.number().int().nullable(),
  enabledToggleCount: z.number().int().nullable(),
  requiredApprovals: z.number().int().nullable().optional(),
});
export type Environment = z.infer<typeof Environment>;

export const Environments = z.object({ version: z.literal(1), environments: z.array(Environment) });
