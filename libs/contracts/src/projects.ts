import { z } from 'zod';
import { UrlFriendlyName } from './common.ts';
import { Role } from './roles.ts';
import { User } from './users.ts';
import { CreateFeatureStrategy, FeatureStrategy } from './strategies.ts';

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

export const OnboardingStatus = z.union([
  z.object({ status: z.enum(['onboarding-started', 'sdk-connected', 'onboarded']) }),
  z.object({ status: z.literal('first-flag-created'), feature: z.string() }),
]);
export const ProjectOwner = z.union([
  z.object({
    ownerType: z.literal('user'),
    name: z.string(),
    email: z.string().nullable(),
    imageUrl: z.string().nullable(),
  }),
  z.object({ ownerType: z.literal('group'), name: z.string() }),
  z.object({ ownerType: z.literal('system') }),
]);

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
  /** 100 less the health rating: the share of stale and potentially stale flags. */
  technicalDebt: z.number().optional(),
  lastUpdatedAt: z.string().nullable().optional(),
  lastReportedFlagUsage: z.string().nullable().optional(),
  onboardingStatus: OnboardingStatus.optional(),
  owners: z.array(ProjectOwner).optional(),
});
export type Project = z.infer<typeof Project>;

/** What every answer about one project's overview says of it (the health report and the project overview). */
export const ProjectOverviewBase = z.object({
  version: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  defaultStickiness: z.string(),
  mode: ProjectMode,
  featureLimit: z.number().nullable(),
  featureNaming: FeatureNaming,
  members: z.number().int(),
  technicalDebt: z.number(),
  updatedAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  favorite: z.boolean(),
});

/** GET /api/admin/projects/:projectId/overview (Unleash's projectOverviewSchema, without the insights windows). */
export const ProjectOverviewAnswer = ProjectOverviewBase.extend({
  linkTemplates: z.array(z.object({ title: z.string().nullable(), urlTemplate: z.string() })),
  health: z.number(),
  environments: z.array(
    z.object({
      environment: z.string(),
      changeRequestsEnabled: z.boolean(),
      defaultStrategy: z.record(z.string(), z.unknown()),
    }),
  ),
  featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number() })),
  archivedAt: z.string().nullable(),
  onboardingStatus: OnboardingStatus,
});

/** GET /api/admin/environments/project/:projectId (Unleash's environmentsProjectSchema). */
export const ProjectEnvironments = z.object({
  version: z.literal(1),
  environments: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      enabled: z.boolean(),
      protected: z.boolean(),
      sortOrder: z.number().int(),
      projectApiTokenCount: z.number().int(),
      projectEnabledToggleCount: z.number().int(),
      defaultStrategy: z.record(z.string(), z.unknown()),
      visible: z.boolean(),
      requiredApprovals: z.number().int().nullable(),
    }),
  ),
});

// Answers: what the routes of this resource send.

/** GET /api/admin/projects/:projectId/access: the project's roles, and who holds which (users with their account's fields). */
export const ProjectAccessView = z.object({
  roles: z.array(Role),
  users: z.array(User.extend({ roleId: z.number().optional(), roles: z.array(z.number()) })),
  groups: z.array(
    z.object({ id: z.number(), name: z.string(), roleId: z.number().optional(), roles: z.array(z.number()) }),
  ),
});

/** GET /api/admin/projects/roles/:roleId/access */
export const RoleProjectAccess = z.array(z.object({ userId: z.number(), project: z.string() })).readonly();

/** POST /api/admin/projects/:projectId/environments/:environment/default-strategy: the strategy new flags get, without an id. */
export const DefaultStrategyView = FeatureStrategy.pick({
  name: true,
  title: true,
  disabled: true,
  constraints: true,
  parameters: true,
  variants: true,
  segments: true,
});

/** GET /api/admin/projects */
export const ProjectList = z.object({ version: z.number(), projects: z.array(Project) });

/**
 * A project managed as code: its flags and segments are changed from files in a repository (the `bunting` CLI), and
 * hand edits are refused with where to change them. Only the named service account (the pipeline's) writes.
 */
export const ManagedAsCode = z.object({
  enabled: z.boolean(),
  /** Where the files are, as a reader finds them: an address or `owner/name`. */
  repository: z.string().trim().min(1).max(500).nullable(),
  /** The project's file or folder in the repository. */
  path: z.string().trim().max(500).nullable(),
  /** The service account whose tokens may change the project (the pipeline's); none: nobody by hand or token. */
  serviceAccountId: z.number().int().positive().nullable(),
});
export type ManagedAsCode = z.infer<typeof ManagedAsCode>;
export const UpdateManagedAsCode = ManagedAsCode.superRefine((value, context) => {
  if (value.enabled && !value.repository)
    context.addIssue({
      code: 'custom',
      path: ['repository'],
      message: 'name the repository the project is managed in',
    });
});
