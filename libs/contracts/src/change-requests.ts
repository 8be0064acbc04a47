import { z } from 'zod';
import { CreateDependency, FeatureName } from './features.ts';
import { UpsertSegment } from './segments.ts';
import { CreateFeatureStrategy, StrategySortOrder } from './strategies.ts';
import { VariantInput } from './variants.ts';
import { AddReleasePlan, ChangeProgression, ReleaseId, SafeguardInput } from './release-plans.ts';

/** The states of a change request, with Unleash's spelling (note the space in "In review"). */
export const CHANGE_REQUEST_STATES = [
  'Draft',
  'In review',
  'Approved',
  'Scheduled',
  'Applied',
  'Cancelled',
  'Rejected',
] as const;
export const ChangeRequestState = z.enum(CHANGE_REQUEST_STATES);
export type ChangeRequestState = z.infer<typeof ChangeRequestState>;

/** Open change requests can still change; closed ones are done (applied, cancelled or rejected). */
export const OPEN_CHANGE_REQUEST_STATES: readonly ChangeRequestState[] = [
  'Draft',
  'In review',
  'Approved',
  'Scheduled',
];

/** updateChangeRequestEnvironmentConfigSchema: approvals outside 1-10 are clamped, as Unleash documents. */
export const UpdateChangeRequestConfig = z.object({
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().int().min(0).max(1_000_000).optional(),
});

export const ChangeRequestEnvironmentConfig = z.object({
  environment: z.string(),
  type: z.string(),
  changeRequestEnabled: z.boolean(),
  requiredApprovals: z.number().nullable(),
});
export type ChangeRequestEnvironmentConfig = z.infer<typeof ChangeRequestEnvironmentConfig>;

const featureChange = <A extends string, P extends z.ZodType>(action: A, payload: P) =>
  z.object({ action: z.literal(action), feature: FeatureName, payload });
const featureChangeWithoutPayload = <A extends string>(action: A) =>
  z.object({ action: z.literal(action), feature: FeatureName, payload: z.unknown().optional() });

/**
 * One change a change request may hold (changeRequestCreateSchema): a flag's enabled state, its strategies, its
 * variants in the environment, its dependencies, archiving it, a segment, or its release plan in the environment
 * (adding or removing it, starting a milestone, a progression, resuming, a safeguard, a running milestone's strategy).
 */
export const ChangeRequestChangeInput = z.discriminatedUnion('action', [
  featureChange(
    'updateEnabled',
    z.object({ enabled: z.boolean(), shouldActivateDisabledStrategies: z.boolean().optional() }),
  ),
  featureChange('addStrategy', CreateFeatureStrategy),
  featureChange('updateStrategy', CreateFeatureStrategy.extend({ id: z.string().min(1).max(255) })),
  featureChange('deleteStrategy', z.object({ id: z.string().min(1).max(255) })),
  featureChange('reorderStrategy', StrategySortOrder),
  featureChange('patchVariant', z.object({ variants: z.array(VariantInput).max(100) })),
  featureChange('addDependency', CreateDependency),
  featureChangeWithoutPayload('deleteDependency'),
  featureChangeWithoutPayload('archiveFeature'),
  z.object({ action: z.literal('updateSegment'), payload: UpsertSegment.extend({ id: z.number().int().min(1) }) }),
  z.object({ action: z.literal('deleteSegment'), payload: z.object({ id: z.number().int().min(1) }) }),
  featureChange('addReleasePlan', AddReleasePlan),
  featureChange('deleteReleasePlan', z.object({ planId: ReleaseId })),
  featureChange('startMilestone', z.object({ milestoneId: ReleaseId, planId: ReleaseId.optional() })),
  featureChange('changeMilestoneProgression', ChangeProgression.extend({ sourceMilestone: ReleaseId })),
  featureChange('deleteMilestoneProgression', z.object({ sourceMilestone: ReleaseId })),
  featureChange('resumeMilestoneProgression', z.object({ planId: ReleaseId })),
  featureChange('changeReleasePlanSafeguard', z.object({ planId: ReleaseId, safeguard: SafeguardInput })),
  featureChange('deleteReleasePlanSafeguard', z.object({ planId: ReleaseId, safeguardId: ReleaseId })),
  featureChange('changeFeatureEnvSafeguard', z.object({ safeguard: SafeguardInput })),
  featureChange('deleteFeatureEnvSafeguard', z.object({ safeguardId: ReleaseId })),
  featureChange('updateMilestoneStrategy', CreateFeatureStrategy.partial({ name: true }).extend({ id: ReleaseId })),
]);
export type ChangeRequestChangeInput = z.infer<typeof ChangeRequestChangeInput>;
export type ChangeRequestAction = ChangeRequestChangeInput['action'];

/** changeRequestOneOrManyCreateSchema */
export const ChangeRequestChangesInput = z.union([
  ChangeRequestChangeInput,
  z.array(ChangeRequestChangeInput).min(1).max(100),
]);

/**
 * PUT .../change-requests/{id}/state: the state asked for, with a comment for an approval or a rejection and the
 * time for a schedule.
 */
export const UpdateChangeRequestState = z.object({
  state: ChangeRequestState,
  comment: z.string().max(10_000).optional(),
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
});
export type UpdateChangeRequestState = z.infer<typeof UpdateChangeRequestState>;

export const UpdateChangeRequestTitle = z.object({ title: z.string().min(1).max(255) });
export const AddChangeRequestComment = z.object({ text: z.string().min(1).max(10_000) });
/** PUT .../approvers: the users asked to review (at most 10). */
export const UpdateChangeRequestReviewers = z.object({ reviewers: z.array(z.number().int().min(1)).max(10) });

/** GET /api/admin/search/change-requests */
export const ChangeRequestSearchQuery = z.object({
  createdBy: z
    .string()
    .regex(/^(IS|IS_ANY_OF):\d+(,\d+)*$/, 'must be IS:<user id>')
    .optional(),
  requestedApproverId: z
    .string()
    .regex(/^(IS|IS_ANY_OF):\d+(,\d+)*$/, 'must be IS:<user id>')
    .optional(),
  state: z.enum(['IS:open', 'IS:closed']).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** GET .../change-requests/scheduled: scheduled requests touching a flag or a strategy. */
export const ScheduledChangeRequestQuery = z.object({
  feature: z.string().max(255).optional(),
  strategyId: z.string().max(255).optional(),
});

const Person = z.object({ username: z.string().nullable(), imageUrl: z.string().nullable() });
const PersonWithId = Person.extend({ id: z.number() });

export const ChangeRequestSchedule = z.object({
  scheduledAt: z.string(),
  status: z.enum(['pending', 'failed', 'suspended']),
  reason: z.string().optional(),
  failureReason: z.string().nullable().optional(),
});
export type ChangeRequestSchedule = z.infer<typeof ChangeRequestSchedule>;

export const ChangeRequestChange = z.object({
  id: z.number(),
  action: z.string(),
  conflict: z.string().optional(),
  payload: z.unknown(),
  createdBy: Person,
  createdAt: z.string(),
});
export type ChangeRequestChange = z.infer<typeof ChangeRequestChange>;

export const ChangeRequestView = z.object({
  id: z.number(),
  title: z.string().optional(),
  environment: z.string(),
  minApprovals: z.number(),
  project: z.string(),
  features: z.array(
    z.object({ name: z.string(), conflict: z.string().optional(), changes: z.array(ChangeRequestChange) }),
  ),
  segments: z.array(ChangeRequestChange.extend({ name: z.string() })),
  approvals: z.array(z.object({ createdBy: PersonWithId, createdAt: z.string() })),
  rejections: z.array(z.object({ createdBy: PersonWithId, createdAt: z.string() })),
  comments: z.array(z.object({ id: z.number(), text: z.string(), createdBy: Person, createdAt: z.string() })),
  createdBy: Person,
  createdAt: z.string(),
  stateTimestamps: z.record(z.string(), z.string()),
  state: ChangeRequestState,
  schedule: ChangeRequestSchedule.optional(),
});
export type ChangeRequestView = z.infer<typeof ChangeRequestView>;

export const ChangeRequestsCount = z.object({
  total: z.number(),
  applied: z.number(),
  rejected: z.number(),
  reviewRequired: z.number(),
  approved: z.number(),
  scheduled: z.number(),
});

export const ChangeRequestReviewer = z.object({
  id: z.number(),
  email: z.string(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  imageUrl: z.string().nullable(),
});
export type ChangeRequestReviewer = z.infer<typeof ChangeRequestReviewer>;

export const ChangeRequestSearchItem = z.object({
  id: z.number(),
  title: z.string().optional(),
  environment: z.string(),
  project: z.string(),
  createdBy: z.object({ id: z.number(), username: z.string().optional(), imageUrl: z.string().optional() }),
  createdAt: z.string(),
  features: z.array(z.string()),
  segments: z.array(z.string()),
  state: ChangeRequestState,
  schedule: ChangeRequestSchedule.optional(),
});
export type ChangeRequestSearchItem = z.infer<typeof ChangeRequestSearchItem>;

// Answers: what the routes of this resource send.

/** GET ${base}/config */
export const ChangeRequestConfigList = z.array(ChangeRequestEnvironmentConfig);

/** POST /api/admin/projects/:projectId/environments/:environment/change-requests */
export const ChangeRequestAnswer = ChangeRequestView;

/** GET base */
export const ChangeRequestList = z.array(ChangeRequestView);

/** GET ${base}/count */
export const ChangeRequestCounts = ChangeRequestsCount;

/** GET ${base}/scheduled */
export const ScheduledChangeRequests = z.array(ChangeRequestView.pick({ id: true, title: true, environment: true }));

/** GET ${base}/available-reviewers/:environment */
export const ChangeRequestReviewers = z.object({ reviewers: z.array(ChangeRequestReviewer) });

/** GET /api/admin/search/change-requests */
export const ChangeRequestSearchAnswer = z.object({
  changeRequests: z.array(ChangeRequestSearchItem),
  total: z.number(),
});
