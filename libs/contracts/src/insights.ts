import { z } from 'zod';
import { Constraint } from './constraints.ts';
import { Feature } from './features.ts';
import { ProjectOverviewBase } from './projects.ts';
import { StrategyVariant } from './variants.ts';

/** A project environment as the health report lists it, with the strategy a flag gets when enabled bare. */
export const HealthReportEnvironment = z.object({
  environment: z.string(),
  changeRequestsEnabled: z.boolean(),
  defaultStrategy: z.object({
    name: z.string(),
    title: z.string().nullable(),
    disabled: z.boolean().nullable(),
    sortOrder: z.number(),
    constraints: z.array(Constraint),
    variants: z.array(StrategyVariant),
    parameters: z.record(z.string(), z.string()),
    segments: z.array(z.number()),
  }),
});

/** What admin-api knows of one project: the health report without the insights service's time windows. */
export const ProjectOverview = ProjectOverviewBase.extend({
  health: z.number().int(),
  environments: z.array(HealthReportEnvironment),
  features: z.array(Feature),
  potentiallyStaleCount: z.number(),
  activeCount: z.number(),
  staleCount: z.number(),
});
export type ProjectOverview = z.infer<typeof ProjectOverview>;

export const ProjectStats = z.object({
  avgTimeToProdCurrentWindow: z.number(),
  createdCurrentWindow: z.number(),
  createdPastWindow: z.number(),
  archivedCurrentWindow: z.number(),
  archivedPastWindow: z.number(),
  projectActivityCurrentWindow: z.number(),
  projectActivityPastWindow: z.number(),
  projectMembersAddedCurrentWindow: z.number(),
});
export type ProjectStats = z.infer<typeof ProjectStats>;

/** A project's health report (Unleash's healthReportSchema). */
export const HealthReport = ProjectOverview.extend({ stats: ProjectStats });
export type HealthReport = z.infer<typeof HealthReport>;

const count = z.number().int();
/** How many of each kind of thing the instance holds. */
const InstanceCounts = z.object({
  featureToggles: count,
  archivedFeatureToggles: count,
  projects: count,
  contextFields: count,
  roles: count,
  customRootRoles: count,
  groups: count,
  environments: count,
  segments: count,
  strategies: count,
});
const TokenCounts = z.object({ admin: count, client: count, frontend: count });

/** Instance statistics (Unleash's instanceAdminStatsSchema). */
export const InstanceStatistics = z.object({
  instanceId: z.string(),
  timestamp: z.string().nullable(),
  versionOSS: z.string(),
  versionEnterprise: z.string(),
  users: z.number().int(),
  serviceAccounts: z.number().int(),
  previousDayMetricsBucketsCount: z.object({ enabledCount: z.number().int(), variantCount: z.number().int() }),
  activeUsers: z.object({
    last7: z.number().int(),
    last30: z.number().int(),
    last60: z.number().int(),
    last90: z.number().int(),
  }),
  productionChanges: z.object({ last30: z.number().int(), last60: z.number().int(), last90: z.number().int() }),
  ...InstanceCounts.shape,
  SAMLenabled: z.boolean(),
  OIDCenabled: z.boolean(),
  passwordAuthEnabled: z.boolean(),
  clientApps: z.array(z.object({ range: z.enum(['allTime', '30d', '7d']), count: z.number().int() })),
  featureExports: z.number().int(),
  featureImports: z.number().int(),
  apiTokens: TokenCounts,
  maxEnvironmentStrategies: z.number().int(),
  maxConstraints: z.number().int(),
  maxConstraintValues: z.number().int(),
  readOnlyUsers: z.number().int(),
  sum: z.string(),
});
export type InstanceStatistics = z.infer<typeof InstanceStatistics>;

const number = z.number();
/** The executive dashboard and /api/admin/insights (Unleash's instanceInsightsSchema). */
export const InstanceInsights = z.object({
  userTrends: z.array(z.object({ date: z.string(), total: number, active: number, inactive: number })),
  flagTrends: z.array(
    z.object({ date: z.string(), total: number, active: number, stale: number, potentiallyStale: number }),
  ),
  projectFlagTrends: z.array(
    z.object({
      week: z.string(),
      project: z.string(),
      health: number,
      timeToProduction: number,
      date: z.string(),
      total: number,
      active: number,
      stale: number,
      potentiallyStale: number,
      users: number,
    }),
  ),
  metricsSummaryTrends: z.array(
    z.object({
      week: z.string(),
      date: z.string(),
      project: z.string(),
      totalRequests: number,
      totalYes: number,
      totalNo: number,
      totalApps: number,
      totalFlags: number,
      totalEnvironments: number,
    }),
  ),
  environmentTypeTrends: z.array(
    z.object({ date: z.string(), week: z.string(), environmentType: z.string(), totalUpdates: number }),
  ),
});
export type InstanceInsights = z.infer<typeof InstanceInsights>;

/** `from` and `to` of /api/admin/insights: calendar days, both included. */
export const InsightsRange = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

const FlagCounts = z.object({
  total: z.number().int(),
  active: z.number().int(),
  stale: z.number().int(),
  potentiallyStale: z.number().int(),
});

/**
 * What admin-api answers on the inventory subject: today's counts of what it owns, for the insights service's
 * statistics and its daily trend snapshots.
 */
export const Inventory = z.object({
  takenAt: z.string(),
  users: z.object({
    total: z.number().int(),
    serviceAccounts: z.number().int(),
    /** Users whose root role is Reader (optional: an admin-api of before it sends none during an upgrade). */
    readOnly: z.number().int().optional(),
    /** Users seen (signed in or used a token of theirs) within 7, 30, 60 and 90 days. */
    seenWithin: z.object({
      last7: z.number().int(),
      last30: z.number().int(),
      last60: z.number().int(),
      last90: z.number().int(),
    }),
  }),
  counts: InstanceCounts,
  apiTokens: TokenCounts,
  maxEnvironmentStrategies: z.number().int(),
  maxConstraints: z.number().int(),
  maxConstraintValues: z.number().int(),
  oidcEnabled: z.boolean(),
  samlEnabled: z.boolean().optional(),
  passwordAuthEnabled: z.boolean(),
  environments: z.array(z.object({ name: z.string(), type: z.string() })),
  flags: FlagCounts,
  projects: z.array(
    FlagCounts.extend({
      id: z.string(),
      health: z.number().int(),
      users: z.number().int(),
      apiTokens: z.number().int(),
      segments: z.number().int(),
    }),
  ),
  /** Every unarchived flag's project, to attribute SDK metrics to projects. */
  featureProjects: z.record(z.string(), z.string()),
  /** Flags by project, lifecycle stage (archived included) and flag type, with how long they have been in the stage. */
  lifecycle: z.array(
    z.object({
      project: z.string(),
      stage: z.string(),
      type: z.string(),
      total: z.number().int(),
      olderThanWeek: z.number().int(),
      newThisWeek: z.number().int(),
      totalDays: z.number(),
    }),
  ),
});
export type Inventory = z.infer<typeof Inventory>;

export const ProjectOverviewRequest = z.object({ projectId: z.string(), principalKey: z.string() });
export type ProjectOverviewRequest = z.infer<typeof ProjectOverviewRequest>;

// Answers: what the routes of this resource send.

/** GET /api/admin/projects/:projectId/dora */
export const ProjectDora = z.object({
  projectAverage: z.number(),
  features: z.array(z.object({ name: z.string(), timeToProduction: z.number() })),
});

/** Flags by health: how many are active, potentially stale and stale, and the rating they give. */
const FlagHealth = z.object({
  activeCount: z.number(),
  potentiallyStaleCount: z.number(),
  staleCount: z.number(),
  rating: z.number(),
});

/** GET /api/admin/projects/:projectId/insights */
export const ProjectInsights = z.object({
  stats: ProjectStats,
  health: FlagHealth,
  technicalDebt: FlagHealth,
  leadTime: ProjectDora,
  featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number() })),
  members: z.object({ currentMembers: z.number(), change: z.number() }),
});

const StageSummary = z.object({ averageDays: z.number().nullable(), currentFlags: z.number() });

/** GET /api/admin/projects/:projectId/status */
export const ProjectStatusAnswer = z.object({
  activityCountByDate: z.array(z.object({ date: z.string(), count: z.number() })),
  resources: z.object({ members: z.number(), apiTokens: z.number(), segments: z.number() }),
  health: z.object({ current: z.number() }),
  technicalDebt: z.object({ current: z.number() }),
  lifecycleSummary: z.object({
    archived: z.object({ currentFlags: z.number(), last30Days: z.number() }),
    initial: StageSummary,
    live: StageSummary,
    completed: StageSummary,
    preLive: StageSummary,
  }),
  staleFlags: z.object({ total: z.number() }),
});

const FlagCategory = z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() });
const StageGroup = z.object({
  totalFlags: z.number(),
  averageDays: z.number(),
  categories: z.object({ release: FlagCategory, experimental: FlagCategory, permanent: FlagCategory }),
});

/** GET /api/admin/insights/lifecycle */
export const LifecycleTrends = z.object({
  lifecycleTrends: z.object({ develop: StageGroup, production: StageGroup, cleanup: StageGroup }),
});
