import { z } from 'zod';
import { EnvironmentSnapshot, FrontendSettings, SnapshotRequest } from './client-api.ts';
import { ImpactAggregation, ImpactLabelSelectors, ImpactRange, ImpactSource } from './impact-metrics.ts';
import { Inventory, ProjectOverview, ProjectOverviewRequest } from './insights.ts';
import { Principal, VerifyCredentialRequest } from './principals.ts';

/**
 * A question another service may ask admin-api over NATS request-reply: where it is asked, what is asked, what is
 * answered, how long the asker waits, and whether the answer travels gzipped (large ones do).
 */
export type PublishedView<Q extends z.ZodType = z.ZodType, A extends z.ZodType = z.ZodType> = {
  /** The last token of the subject `<namespace>.rpc.<service>.<name>`. */
  name: string;
  /** The service that answers it: admin-api unless said. */
  service?: 'admin' | 'insights' | 'event-log';
  request: Q;
  answer: A;
  timeoutMs: number;
  gzip: boolean;
};

function view<Q extends z.ZodType, A extends z.ZodType>(spec: PublishedView<Q, A>): PublishedView<Q, A> {
  return spec;
}

/** How an answer travels: the answer, or that there is none right now (the asker then says 503). */
export function viewReply<A extends z.ZodType>(answer: A) {
  return z.union([z.object({ answer }), z.object({ error: z.string() })]);
}

/** Who a credential (API token, personal access token, session) belongs to; null when it is not valid. */
export const CredentialView = view({
  name: 'credential',
  request: VerifyCredentialRequest,
  answer: Principal.nullable(),
  timeoutMs: 3000,
  gzip: false,
});

/** An API token as the SDK edge checks it: by the hash of its secret, never the secret itself. */
export const SdkToken = z.object({
  /** SHA-256 of the secret, hex. */
  hash: z.string(),
  name: z.string(),
  type: z.enum(['admin', 'client', 'frontend']),
  environment: z.string(),
  projects: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type SdkToken = z.infer<typeof SdkToken>;

/** Every API token, for the SDK edge to verify SDK requests locally (admin ones only to refuse them rightly). */
export const SdkTokensView = view({
  name: 'sdk-tokens',
  request: z.object({}),
  answer: z.array(SdkToken),
  timeoutMs: 5000,
  gzip: true,
});

/** One API token by the hash of its secret, for a secret the edge has not seen yet (a token made a moment ago). */
export const SdkTokenView = view({
  name: 'sdk-token',
  request: z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/) }),
  answer: SdkToken.nullable(),
  timeoutMs: 2000,
  gzip: false,
});

/** One environment's configuration for the SDK edge's snapshots. */
export const SnapshotView = view({
  name: 'snapshot',
  request: SnapshotRequest,
  answer: EnvironmentSnapshot,
  timeoutMs: 10_000,
  gzip: true,
});

/** The frontend API's CORS origins as an admin set them. */
export const FrontendSettingsView = view({
  name: 'frontend-settings',
  request: z.object({}),
  answer: FrontendSettings,
  timeoutMs: 3000,
  gzip: false,
});

/** Today's counts of what admin-api owns, for insights' statistics and trend snapshots. */
export const InventoryView = view({
  name: 'inventory',
  request: z.object({}),
  answer: Inventory,
  timeoutMs: 10_000,
  gzip: true,
});

/** One project's overview for its health report; null when there is no such project. */
export const ProjectOverviewView = view({
  name: 'project-overview',
  request: ProjectOverviewRequest,
  answer: ProjectOverview.nullable(),
  timeoutMs: 10_000,
  gzip: true,
});

/** Which project a flag is in and whether it is archived; null when there is no flag of that name. */
export const FeatureLookupView = view({
  name: 'feature',
  request: z.object({ featureName: z.string().min(1).max(255) }),
  answer: z.object({ project: z.string(), archived: z.boolean() }).nullable(),
  timeoutMs: 3000,
  gzip: false,
});

/**
 * The value of an impact metric now, as a safeguard compares it with its threshold: the query aggregated over the
 * last step and the one running (a counter's increase or rate, a gauge's latest values, a histogram's quantile).
 * Null when there is nothing to go by; an unreadable source answers an error, which the asker sees as a 503.
 */
export const ImpactValueView = view({
  name: 'impact-value',
  service: 'insights',
  request: z.object({
    metricName: z.string().min(1).max(300),
    timeRange: ImpactRange,
    aggregationMode: ImpactAggregation,
    labelSelectors: ImpactLabelSelectors,
    source: ImpactSource.default('internal'),
  }),
  answer: z.object({ value: z.number().nullable(), error: z.string().optional() }),
  timeoutMs: 8000,
  gzip: false,
});

/** One side's totals of an impact metric: a counter's increase, or a histogram's sum, count and estimated Σx². */
export const ImpactArmTotals = z.object({
  total: z.number(),
  observations: z.number().nullable(),
  squares: z.number().nullable(),
});

/**
 * A guardrail's raw figures: a metric's series labelled with the flag, split into those where it was on (any value
 * but `disabled`) and off, and the flag's SDK exposures in the environment, each summed since a time (impact points
 * from its hour, exposures from its day: the asker subtracts its first answer). Cumulative, so looks can be compared.
 */
export const ImpactArmsView = view({
  name: 'impact-arms',
  service: 'insights',
  request: z.object({
    metricName: z.string().min(1).max(300),
    featureName: z.string().min(1).max(255),
    environment: z.string().min(1).max(100),
    labelSelectors: ImpactLabelSelectors,
    since: z.string().datetime(),
    /** Where the metric is read: Bunting's own series (default) or the external Prometheus-compatible source. */
    source: ImpactSource.optional(),
  }),
  answer: z.object({
    type: z.enum(['counter', 'gauge', 'histogram']).nullable(),
    /** The metric's series that carry the flag's label (its name as a label: other characters than a-z, 0-9, _ become _). */
    series: z.number(),
    on: ImpactArmTotals,
    off: ImpactArmTotals,
    exposures: z.object({ yes: z.number(), no: z.number() }),
    error: z.string().optional(),
  }),
  timeoutMs: 8000,
  gzip: false,
});

/**
 * An experiment's raw figures since the UTC day it started, per step (an hour; a day once it began more than 47 hours
 * ago, as the SDK metrics' hours are rolled up into days after 48): the flag's SDK exposures per variant and the
 * metric's series labelled with the flag, summed per label value (the variant's name). Increments, not running
 * totals: the asker adds them up, so it can read the comparison at every step as well as now.
 */
export const ImpactVariantsView = view({
  name: 'impact-variants',
  service: 'insights',
  request: z.object({
    metricName: z.string().min(1).max(300),
    featureName: z.string().min(1).max(255),
    environment: z.string().min(1).max(100),
    since: z.string().datetime(),
  }),
  answer: z.object({
    type: z.enum(['counter', 'gauge', 'histogram']).nullable(),
    steps: z.array(
      z.object({
        at: z.string(),
        exposures: z.record(z.string(), z.number()),
        arms: z.record(z.string(), ImpactArmTotals),
      }),
    ),
  }),
  timeoutMs: 10_000,
  gzip: true,
});

/** Per answer (variant), the sums and cross sums over users of their values: post, its denominator, and both before. */
const UnitMoments = z.object({
  n: z.number(),
  /** Σ of y (the metric since the start), d (its denominator), x and dx (the same before the start), in that order. */
  sums: z.array(z.number()).length(4),
  /** Σ of each product of the four, row-major (4 x 4, symmetric). */
  products: z.array(z.array(z.number()).length(4)).length(4),
  /** Users with any value in the period before. */
  withHistory: z.number(),
});
export type UnitMoments = z.infer<typeof UnitMoments>;

/**
 * An experiment's figures per user from tracked outcomes, at the end of each UTC day since it began (at most 15 of
 * them, evenly spread, the last one today): per answer the flag gave, the users seen and their moments. Users who
 * were given more than one answer are left out and counted.
 */
export const TrackedUnitsView = view({
  name: 'tracked-units',
  service: 'insights',
  request: z.object({
    featureName: z.string().min(1).max(255),
    environment: z.string().min(1).max(100),
    metricName: z.string().min(1).max(200),
    denominator: z.string().min(1).max(200).nullable(),
    aggregation: z.enum(['sum', 'converted']),
    preDays: z.number().int().min(0).max(30),
    since: z.string().datetime(),
  }),
  answer: z.object({
    steps: z.array(z.object({ at: z.string(), arms: z.record(z.string(), UnitMoments) })),
    excludedUnits: z.number(),
    /** When these figures were read: a large experiment's are answered from the last reading while a new one runs. */
    computedAt: z.string(),
  }),
  timeoutMs: 10_000,
  gzip: true,
});

/** A project's latest events, newest first, as its dashboard lists them (event-log keeps the log). */
export const ProjectEventsView = view({
  name: 'project-events',
  service: 'event-log',
  request: z.object({ project: z.string().min(1).max(255), limit: z.number().int().min(1).max(50) }),
  answer: z.array(
    z.object({
      id: z.number().int(),
      type: z.string(),
      createdBy: z.string(),
      createdByUserId: z.number().int().nullable(),
      createdAt: z.string(),
      featureName: z.string().nullable(),
      environment: z.string().nullable(),
    }),
  ),
  timeoutMs: 3000,
  gzip: false,
});

/** When an event was made, by its id in the log or its uuid (what audit receivers see): where a replay starts. */
export const EventTimeView = view({
  name: 'event-time',
  service: 'event-log',
  request: z.union([z.object({ id: z.number().int().min(1) }), z.object({ uuid: z.uuid() })]),
  answer: z.object({ createdAt: z.string().nullable() }),
  timeoutMs: 3000,
  gzip: false,
});
