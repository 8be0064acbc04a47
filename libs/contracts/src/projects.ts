import { z } from 'zod';
import { UrlFriendlyName } from './common.ts';
import { CreateFeatureStrategy } from './strategies.ts';

export const ProjectMode = z.enum(['open', 'protected', 'private']);

export const FeatureNaming = z.object({
  pattern: z.string().max(500).nullable(),
  example: z.string().max(500).nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
});
export type FeatureNaming = z.infer<typeof FeatureNaming>;

export const CreateProject = z.object({
  id: UrlFriendlyName,
  name: z.string().min(1).max(255),
  description: z.string().max(2000).nullable().optional(),
  mode: ProjectMode.optional(),
  defaultStickiness: z.string().min(1).max(100).optional(),
  featureLimit: z.number().int().min(1).nullable().optional(),
  featureNaming: FeatureNaming.optional(),
  environments: z.array(z.string()).max(100).optional(),
});
export type CreateProject = z.infer<typeof CreateProject>;

export const UpdateProject = CreateProject.omit({ id: true, environments: true }).extend({
  id: z.string().optional(),
  name: z.string().min(1).max(255).optional(),
});
export type UpdateProject = z.infer<typeof UpdateProject>;

export const ProjectEnvironmentInput = z.object({
  environment: z.string().min(1).max(100),
  changeRequestsEnabled: z.boolean().optional(),
  defaultStrategy: CreateFeatureStrategy.optional(),
});

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  health: z.number(),
  featureCount: z.number(),
  staleFeatureCount: z.number(),
  potentiallyStaleFeatureCount: z.number(),
  memberCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  favorite: z.boolean(),
  mode: ProjectMode,
  defaultStickiness: z.string(),
  featureLimit: z.number().nullable(),
  featureNaming: FeatureNaming,
  environments: z.array(z.string()),
});
export type Project = z.infer<typeof Project>;
