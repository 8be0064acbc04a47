import { z } from 'zod';
import { UrlFriendlyName } from './common.ts';
import { ColoredTag, CreateTag } from './tags.ts';
import { FeatureStrategy } from './strategies.ts';
import { Variant } from './variants.ts';
import { EnvironmentSafeguard, ReleasePlan } from './release-plans.ts';

export const FEATURE_TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission', 'sunset'] as const;
export const FeatureType = z.enum(FEATURE_TYPES);
/** A flag type as /api/admin/feature-types lists it, with how long a flag of it is expected to live. */
export const FeatureTypeInfo = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  lifetimeDays: z.number().nullable(),
});
export type FeatureTypeInfo = z.infer<typeof FeatureTypeInfo>;

export const FeatureName = UrlFriendlyName;

export const CreateFeature = z.object({
  name: FeatureName,
  type: FeatureType.optional(),
  description: z.string().max(2000).nullable().optional(),
  impressionData: z.boolean().optional(),
  tags: z.array(CreateTag).max(100).optional(),
  // Unleash keeps a flag made with archived: true in the archive at once (its tests free a name that way).
  archived: z.boolean().optional(),
});
export type CreateFeature = z.infer<typeof CreateFeature>;

export const UpdateFeature = z.object({
  name: z.string().optional(),
  description: z.string().max(2000).nullable().optional(),
  type: FeatureType.optional(),
  stale: z.boolean().optional(),
  archived: z.boolean().optional(),
  impressionData: z.boolean().optional(),
  project: z.string().optional(),
});
export type UpdateFeature = z.infer<typeof UpdateFeature>;

/** RFC 6902 operations, as Unleash accepts them on feature and variant PATCH routes. */
export const PatchOperation = z.object({
  op: z.enum(['add', 'remove', 'replace', 'copy', 'move', 'test']),
  path: z.string().max(1000),
  from: z.string().max(1000).optional(),
  value: z.unknown().optional(),
});
export const PatchOperations = z.array(PatchOperation).max(1000);
export type PatchOperation = z.infer<typeof PatchOperation>;

export const ValidateFeatureName = z.object({ name: FeatureName, projectId: z.string().optional() });

/** Reading one flag: `archived=true` also finds it archived (Bunting's console; Unleash answers 404 for one). */
export const FeatureReadQuery = z.object({ archived: z.enum(['true', 'false']).optional() });
export const FeatureStale = z.object({ features: z.array(z.string()).min(1).max(1000), stale: z.boolean() });
export const FeatureNames = z.object({ features: z.array(z.string()).min(1).max(1000) });

export const Dependency = z.object({
  feature: z.string(),
  enabled: z.boolean(),
  variants: z.array(z.string()).optional(),
});
export type Dependency = z.infer<typeof Dependency>;
export const CreateDependency = z.object({
  feature: FeatureName,
  enabled: z.boolean().optional(),
  variants: z.array(z.string().min(1).max(255)).max(100).optional(),
});

export const FeatureEnvironment = z.object({
  name: z.string(),
  featureName: z.string(),
  environment: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  sortOrder: z.number(),
  variantCount: z.number(),
  strategies: z.array(FeatureStrategy),
  variants: z.array(Variant),
  lastSeenAt: z.string().nullable(),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
  /** How often SDKs evaluated the flag on and off here in the last hour. */
  yes: z.number().int().optional(),
  no: z.number().int().optional(),
  /** The release plan applied here (a milestone's strategies serve ahead of the flag's own, listed above). */
  releasePlans: z.array(ReleasePlan).optional(),
  /** Safeguards of the flag environment itself (a plan's are on the plan). */
  safeguards: z.array(EnvironmentSafeguard).optional(),
});
export type FeatureEnvironment = z.infer<typeof FeatureEnvironment>;

export const CreatedBy = z.object({ id: z.number(), name: z.string(), imageUrl: z.string() });

export const Lifecycle = z.object({
  stage: z.string(),
  status: z.string().nullable().optional(),
  enteredStageAt: z.string(),
});

export const Feature = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  archived: z.boolean(),
  project: z.string(),
  enabled: z.boolean(),
  stale: z.boolean(),
  favorite: z.boolean(),
  impressionData: z.boolean(),
  createdAt: z.string().nullable(),
  createdBy: CreatedBy.optional(),
  archivedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  environments: z.array(FeatureEnvironment),
  variants: z.array(Variant),
  strategies: z.array(z.unknown()),
  tags: z.array(ColoredTag).nullable(),
  children: z.array(z.string()),
  dependencies: z.array(Dependency),
  lifecycle: Lifecycle.optional(),
  collaborators: z.object({ users: z.array(CreatedBy) }).optional(),
  links: z
    .array(z.object({ id: z.string(), url: z.string(), title: z.string().nullable(), feature: z.string() }))
    .optional(),
});
export type Feature = z.infer<typeof Feature>;

/** A link on a flag (to its ticket, docs, dashboard), as written. */
export const FeatureLinkInput = z.object({
  url: z.string().trim().min(1).max(1000),
  title: z.string().max(100).nullable().optional(),
});
export type FeatureLinkInput = z.infer<typeof FeatureLinkInput>;

/** The 201 body of feature creation, exactly the fields the reference returns. */
export const CreatedFeature = z.object({
  name: z.string(),
  description: z.string().nullable(),
  type: z.string(),
  project: z.string(),
  stale: z.boolean(),
  createdAt: z.string(),
  impressionData: z.boolean(),
  archived: z.boolean(),
});
export type CreatedFeature = z.infer<typeof CreatedFeature>;

// Answers: what the routes of this resource send.

/** GET ${base}/parents */
export const FeatureNameList = z.array(z.string()).readonly();

/** GET ${base}/dependencies */
export const FeatureDependencies = z.array(Dependency);

/** GET /api/admin/projects/:projectId/dependencies */
export const ProjectHasDependencies = z.boolean();

/** POST /api/admin/projects/:projectId/archive/validate */
export const ArchiveValidation = z.object({
  parentsWithChildFeatures: z.array(z.string()).readonly(),
  hasDeletedDependencies: z.boolean(),
});

/** GET /api/admin/projects/:projectId/features/:featureName/environments/:environment */
export const FeatureEnvironmentView = FeatureEnvironment;

/** GET /api/admin/archive/features, /api/admin/features, /api/admin/projects/:projectId/features */
export const FeatureList = z.object({ version: z.number(), features: z.array(Feature) });

/** GET /api/admin/flag-creators */
export const FlagCreators = z.array(CreatedBy.pick({ id: true, name: true })).readonly();
/** GET /api/admin/flag-creators: a page of them, as Unleash 8 answers (`q` searches; like Unleash, no other name). */
export const FlagCreatorsPage = z.object({ flagCreators: FlagCreators, total: z.number().int() });
export const FlagCreatorsQuery = z.object({
  q: z.string().max(200).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** GET /api/admin/feature-types */
export const FeatureTypeList = z.object({ version: z.number(), types: z.array(FeatureTypeInfo).readonly() });

/** PUT /api/admin/feature-types/:id/lifetime */
export const FeatureTypeView = FeatureTypeInfo;

/** GET /api/admin/projects/:projectId/features/:featureName/lifecycle */
export const FeatureLifecycleStages = z.array(
  Lifecycle.pick({ stage: true, enteredStageAt: true }).extend({ status: z.string().optional() }),
);

/** GET /api/admin/lifecycle/count */
export const LifecycleCounts = z.object({
  initial: z.number(),
  preLive: z.number(),
  live: z.number(),
  completed: z.number(),
  archived: z.number(),
});
