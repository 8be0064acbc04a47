import { z } from 'zod';

/** Paging and search of /api/admin/metrics/applications. */
export const ApplicationsQuery = z.object({
  query: z.string().max(255).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  sortBy: z.enum(['appName']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
});

/** The same for a project's applications, which Unleash also lets sort by `name`. */
export const ProjectApplicationsQuery = ApplicationsQuery.extend({ sortBy: z.enum(['name', 'appName']).optional() });

/** createApplicationSchema: what an admin says of an application. */
export const CreateApplication = z.object({
  description: z.string().max(1000).optional(),
  url: z.string().max(2000).optional(),
  color: z.string().max(100).optional(),
  icon: z.string().max(2000).optional(),
  strategies: z.array(z.string().max(255)).max(100).optional(),
});

/** `hoursBack` of a flag's raw metrics: one hour to two weeks. */
export const RawMetricsQuery = z.object({ hoursBack: z.coerce.number().int().min(1).max(336).optional() });

// Answers: what the routes of this resource send.

/** An application as SDK registrations describe it, with where its flags are used. */
export const Application = z.object({
  appName: z.string(),
  sdkVersion: z.string().optional(),
  description: z.string().optional(),
  url: z.string().optional(),
  color: z.string().optional(),
  icon: z.string().optional(),
  strategies: z.array(z.string()),
  usage: z.array(z.object({ project: z.string(), environments: z.array(z.string()) })),
});

/** GET /api/admin/metrics/applications */
export const ApplicationList = z.object({ total: z.number(), applications: z.array(Application) });

/** GET /api/admin/metrics/applications/:appName */
export const ApplicationView = Application;

/** GET /api/admin/metrics/instances/:appName/environment/:environment */
export const ApplicationInstances = z.object({
  instances: z.array(z.object({ sdkVersion: z.string().nullable(), instanceId: z.string(), lastSeen: z.string() })),
});

/** GET /api/admin/metrics/applications/:appName/overview */
export const ApplicationOverview = z.object({
  projects: z.array(z.string()).readonly(),
  featureCount: z.number(),
  environments: z.array(
    z.object({
      issues: z.object({ missingFeatures: z.array(z.string()), outdatedSdks: z.array(z.string()) }),
      name: z.string(),
      instanceCount: z.number(),
      sdks: z.array(z.string()),
      frontendSdks: z.array(z.string()),
      backendSdks: z.array(z.string()),
      lastSeen: z.string().nullable(),
    }),
  ),
  issues: z.object({ missingStrategies: z.array(z.never()) }),
});

/** GET /api/admin/metrics/sdks/outdated */
export const OutdatedSdks = z.object({
  sdks: z.array(z.object({ sdkVersion: z.string(), applications: z.array(z.string()) })),
});

/** A flag's SDK metrics of one hour, application and environment. */
export const FeatureMetricsHour = z.object({
  featureName: z.string(),
  appName: z.string(),
  environment: z.string(),
  timestamp: z.string(),
  yes: z.number(),
  no: z.number(),
  variants: z.record(z.string(), z.number()),
});

/** GET /api/admin/client-metrics/features/:name */
export const FeatureMetrics = z.object({
  version: z.number(),
  maturity: z.string(),
  featureName: z.string(),
  lastHourUsage: z.array(
    FeatureMetricsHour.pick({ featureName: true, environment: true, timestamp: true, yes: true, no: true }),
  ),
  totalUsage: z.array(FeatureMetricsHour.pick({ environment: true, yes: true, no: true })),
  seenApplications: z.array(z.string()),
  data: z.array(FeatureMetricsHour).readonly(),
});

/** GET /api/admin/client-metrics/features/:name/raw */
export const FeatureMetricsRaw = FeatureMetrics.pick({ version: true, maturity: true, data: true });

/** GET /api/admin/metrics/unknown-flags */
export const UnknownFlags = z.object({
  unknownFlags: z.array(
    z.object({
      reports: z.array(
        z.object({
          appName: z.string(),
          environments: z.array(z.object({ environment: z.string(), seenAt: z.string() })),
        }),
      ),
      name: z.string(),
      lastSeenAt: z.string(),
      lastEventAt: z.null(),
    }),
  ),
});

/** GET /api/admin/projects/:projectId/applications */
export const ProjectApplicationList = z.object({
  total: z.number(),
  applications: z.array(
    z.object({
      name: z.string(),
      environments: z.array(z.string()),
      instances: z.array(z.string()),
      sdks: z.array(z.object({ name: z.string(), versions: z.array(z.string()) })),
    }),
  ),
});
