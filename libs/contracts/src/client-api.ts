import { z } from 'zod';
import { Constraint } from './constraints.ts';
import { Dependency } from './features.ts';
import { StrategyVariant, Variant, VariantPayload } from './variants.ts';
import { TrackedUnits } from './tracking.ts';

/** A strategy as SDKs receive it from /api/client/features. */
export const ClientStrategy = z.object({
  id: z.string().optional(),
  name: z.string(),
  title: z.string().nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  sortOrder: z.number().optional(),
  constraints: z.array(Constraint).optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  segments: z.array(z.number()).optional(),
  variants: z.array(StrategyVariant.partial({ weightType: true, stickiness: true })).optional(),
});
export type ClientStrategy = z.infer<typeof ClientStrategy>;

export const ClientFeature = z.object({
  name: z.string(),
  type: z.string().optional(),
  description: z.string().nullable().optional(),
  project: z.string().optional(),
  enabled: z.boolean(),
  stale: z.boolean().optional(),
  impressionData: z.boolean().nullable().optional(),
  strategies: z.array(ClientStrategy).optional(),
  variants: z
    .array(Variant.partial({ weightType: true, stickiness: true }))
    .nullable()
    .optional(),
  dependencies: z.array(Dependency.partial({ enabled: true })).optional(),
});
export type ClientFeature = z.infer<typeof ClientFeature>;

export const ClientSegment = z.object({
  id: z.number(),
  name: z.string().optional(),
  constraints: z.array(Constraint),
});
export type ClientSegment = z.infer<typeof ClientSegment>;

export const ClientFeatures = z.object({
  version: z.number(),
  features: z.array(ClientFeature),
  segments: z.array(ClientSegment).optional(),
  query: z.record(z.string(), z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type ClientFeatures = z.infer<typeof ClientFeatures>;

/** One environment's configuration, as admin-api answers the snapshot request and Redis keeps it. */
export const EnvironmentSnapshot = z.object({
  environment: z.string(),
  /** Tags ride along only so SDKs can ask for flags by tag; they are not part of any answer. */
  features: z.array(
    ClientFeature.extend({
      project: z.string(),
      tags: z.array(z.object({ type: z.string(), value: z.string() })).optional(),
    }),
  ),
  segments: z.array(ClientSegment),
});
export type EnvironmentSnapshot = z.infer<typeof EnvironmentSnapshot>;

/**
 * One environment's snapshot; with `features`, only those flags (a flag archived, deleted or no longer in the
 * environment is left out) and every segment, for an edge that already holds the rest.
 */
export const SnapshotRequest = z.object({
  environment: z.string(),
  features: z.array(z.string()).max(1000).optional(),
});

/** The evaluation context SDKs and the frontend API use. */
export type EvaluationContext = {
  appName?: string;
  environment?: string;
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  currentTime?: string | Date;
  properties?: Record<string, string | undefined | null>;
  [field: string]: unknown;
};

export const FrontendVariant = z.object({
  name: z.string(),
  enabled: z.boolean(),
  payload: VariantPayload.optional(),
  feature_enabled: z.boolean(),
  featureEnabled: z.boolean(),
});

export const FrontendToggle = z.object({
  name: z.string(),
  enabled: z.literal(true),
  variant: FrontendVariant,
  impressionData: z.boolean(),
});

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const MetricsToggle = z.object({
  yes: z.number().int().min(0).optional(),
  no: z.number().int().min(0).optional(),
  variants: z.record(z.string(), z.number().int().min(0)).nullable().optional(),
});
const DateLike = z.union([z.string(), z.number()]);

export const ClientMetrics = z
  .object({
    appName: z.string().min(1).max(255),
    instanceId: z.string().max(255).optional(),
    environment: z.string().max(255).optional(),
    sdkVersion: z.string().max(255).optional(),
    platformName: z.string().max(255).optional(),
    platformVersion: z.string().max(255).optional(),
    yggdrasilVersion: z.string().max(255).nullable().optional(),
    specVersion: z.string().max(255).optional(),
    bucket: z.object({ start: DateLike, stop: DateLike, toggles: z.record(z.string(), MetricsToggle) }),
    /**
     * The application's own counters, gauges and histograms (impact metrics). Read leniently by
     * `admitImpactMetrics`: a malformed one is dropped and counted, and the flag counts beside it are kept.
     */
    impactMetrics: z.unknown().optional(),
  })
  .loose();
export type ClientMetrics = z.infer<typeof ClientMetrics>;

/**
 * POST /api/client/metrics as SDKs send it: a post carrying only impact metrics may leave the bucket out or send
 * null, as Unleash accepts; the edge then publishes an empty bucket.
 */
export const ClientMetricsPost = ClientMetrics.extend({ bucket: ClientMetrics.shape.bucket.nullable().optional() });
export type ClientMetricsPost = z.infer<typeof ClientMetricsPost>;

export const ClientRegistration = z
  .object({
    appName: z.string().min(1).max(255),
    instanceId: z.string().max(255).optional(),
    sdkVersion: z.string().max(255).optional(),
    environment: z.string().max(255).optional(),
    interval: z.number().min(0).optional(),
    started: DateLike.optional(),
    strategies: z.array(z.string()).optional(),
  })
  .loose();
export type ClientRegistration = z.infer<typeof ClientRegistration>;

/** `POST /api/client/metrics/bulk`, as Unleash Edge sends it: registrations and per-flag counts of many apps. */
export const BulkMetrics = z.object({
  applications: z
    .array(ClientRegistration.partial({ appName: true }))
    .max(1000)
    .optional(),
  metrics: z
    .array(
      z
        .object({
          featureName: z.string().min(1).max(255),
          appName: z.string().min(1).max(255),
          environment: z.string().max(255).optional(),
          timestamp: DateLike,
          yes: Count,
          no: Count,
          variants: z.record(z.string(), Count).optional(),
        })
        .loose(),
    )
    .max(10_000)
    .optional(),
  /** Impact metrics Edge gathered from the SDKs behind it, in the shape SDKs send them. */
  impactMetrics: z.unknown().optional(),
});
export type BulkMetrics = z.infer<typeof BulkMetrics>;

/** A frontend SDK's registration: the app name is optional there. */
export const FrontendRegistration = ClientRegistration.partial({ appName: true });

const MetricsEnvelope = {
  receivedAt: z.string(),
  /** The environment of the token the SDK sent it with ("*" for admin tokens). */
  environment: z.string(),
  tokenName: z.string(),
  /**
   * The projects of that token ("*" for all). Counts are kept only for flags of these projects: the edge admits a
   * few names it does not hold, and one of them may be another project's flag it has not heard of yet. Absent on
   * messages sent before it was carried, which are taken as the edge checked them.
   */
  projects: z.array(z.string()).optional(),
};

/**
 * What frontend-api publishes on the metrics stream for insights and admin-api: one SDK's bucket of counts, its
 * registration, or a bulk post (Unleash Edge's) of many apps' counts and registrations. Each body is the contract
 * the edge checked it against, so consumers read it as it is.
 */
export const MetricsMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('client-metrics'), ...MetricsEnvelope, body: ClientMetrics }),
  z.object({ kind: z.literal('frontend-metrics'), ...MetricsEnvelope, body: ClientMetrics }),
  z.object({ kind: z.literal('client-register'), ...MetricsEnvelope, body: ClientRegistration }),
  z.object({ kind: z.literal('frontend-register'), ...MetricsEnvelope, body: FrontendRegistration }),
  z.object({ kind: z.literal('bulk-metrics'), ...MetricsEnvelope, body: BulkMetrics }),
  z.object({ kind: z.literal('tracked-units'), ...MetricsEnvelope, body: TrackedUnits }),
]);
export type MetricsMessage = z.infer<typeof MetricsMessage>;

/**
 * The environment a metrics entry counts in: its own if it names one (bulk posts do), else its token's. A token
 * bound to one environment speaks for that environment only; undefined when the entry claims another.
 */
export function metricsEnvironment(message: MetricsMessage, entryEnvironment: string | undefined): string | undefined {
  const environment = entryEnvironment ?? message.environment;
  return message.environment === '*' || environment === message.environment ? environment : undefined;
}

/** The projects a metrics message may count for, or undefined when it may count for every project. */
export function metricsProjects(message: Pick<MetricsMessage, 'projects'>): ReadonlySet<string> | undefined {
  return message.projects === undefined || message.projects.includes('*') ? undefined : new Set(message.projects);
}

/** Origins the frontend API allows by CORS, as an admin set them (null: not set, the deployment's default applies). */
export const FrontendSettings = z.object({
  frontendApiOrigins: z.array(z.string().min(1).max(500)).max(100).nullable(),
});
export type FrontendSettings = z.infer<typeof FrontendSettings>;

/** GET/POST /api/frontend: the flags on for the context. */
export const FrontendAnswer = z.object({ toggles: z.array(FrontendToggle) });
/** /api/frontend/all: every flag the token sees, the off ones with enabled false. */
export const FrontendAllAnswer = z.object({ toggles: z.array(FrontendToggle.extend({ enabled: z.boolean() })) });

/** The delta events the Unleash SDKs apply (client spec 5.2): a hydration, or what changed since a revision. */
export const DeltaEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hydration'),
    eventId: z.number(),
    features: z.array(ClientFeature),
    segments: z.array(ClientSegment),
  }),
  z.object({ type: z.literal('feature-updated'), eventId: z.number(), feature: ClientFeature }),
  z.object({ type: z.literal('feature-removed'), eventId: z.number(), featureName: z.string(), project: z.string() }),
  z.object({ type: z.literal('segment-updated'), eventId: z.number(), segment: ClientSegment }),
  z.object({ type: z.literal('segment-removed'), eventId: z.number(), segmentId: z.number() }),
]);
export type DeltaEvent = z.infer<typeof DeltaEvent>;
/** GET /api/client/delta */
export const DeltaAnswer = z.object({ events: z.array(DeltaEvent) });
