import { z } from 'zod';

/**
 * Impact metrics: the counters, gauges and histograms an application defines through its Unleash SDK
 * (`defineCounter`/`incrementCounter`, `defineGauge`/`updateGauge`, `defineHistogram`/`observeHistogram`), sent
 * inside its metrics posts as `impactMetrics`, and what the API answers about them.
 */

export const IMPACT_METRIC_TYPES = ['counter', 'gauge', 'histogram'] as const;
export const ImpactMetricType = z.enum(IMPACT_METRIC_TYPES);
export type ImpactMetricType = z.infer<typeof ImpactMetricType>;

/** What one post may carry of them; beyond these a metric or a sample is dropped, and counted, never the post. */
export const IMPACT_POST_LIMITS = {
  metrics: 200,
  nameLength: 200,
  helpLength: 1000,
  samplesPerMetric: 1000,
  labelsPerSample: 16,
  labelNameLength: 100,
  labelValueLength: 200,
  bucketsPerSample: 50,
} as const;

/** Why a metric or a sample was left out; the reasons the drop counters are labelled with. */
export const IMPACT_DROP_REASONS = [
  'malformed',
  'invalid_name',
  'invalid_type',
  'missing_help',
  'invalid_value',
  'negative_counter',
  'invalid_labels',
  'too_many_labels',
  'invalid_buckets',
  'too_many_samples',
  'too_many_metrics',
  'too_many_series',
  'series_labels_over_limit',
  'bucket_mismatch',
  'too_many_units',
] as const;
export type ImpactDropReason = (typeof IMPACT_DROP_REASONS)[number];

export type ImpactLabels = Record<string, string>;
export type ImpactBucket = { le: number | '+Inf'; count: number };
export type NumericImpactSample = { labels: ImpactLabels; value: number };
export type HistogramImpactSample = { labels: ImpactLabels; count: number; sum: number; buckets: ImpactBucket[] };

/** A metric as kept after admission: name sanitised, labels as strings, values finite. */
export type ImpactMetric =
  | { name: string; help: string; type: 'counter' | 'gauge'; samples: NumericImpactSample[] }
  | { name: string; help: string; type: 'histogram'; samples: HistogramImpactSample[] };

/** A name as Unleash keeps it: anything but letters, digits and underscores becomes an underscore. */
export const sanitiseImpactName = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, '_');

/**
 * The name an impact metric is stored and queried under: `unleash_<type>_<name>`, as Unleash's charts query it (its
 * exposition gives the SDK's name with a metric_type label, which a scrape's relabelling turns into this).
 */
export const impactSeriesName = (type: ImpactMetricType, name: string) => `unleash_${type}_${name}`;

/** The type and display name in a stored name, or null for a name not made by impactSeriesName. */
export function parseImpactSeriesName(seriesName: string): { type: ImpactMetricType; displayName: string } | null {
  const match = /^unleash_(counter|gauge|histogram)_(.+)$/.exec(seriesName);
  return match ? { type: match[1] as ImpactMetricType, displayName: match[2]! } : null;
}

/** A metric as the application named it: a stored name without its `unleash_<type>_` prefix; any other as it is. */
export const impactDisplayName = (name: string) => parseImpactSeriesName(name)?.displayName ?? name;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const validName = (name: string) => /^[a-zA-Z_]/.test(name);

type Admitted<T> = { ok: true; value: T } | { ok: false; reason: ImpactDropReason };
const refuse = (reason: ImpactDropReason) => ({ ok: false as const, reason });

function admitLabels(raw: unknown): Admitted<ImpactLabels> {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (!isRecord(raw)) return refuse('invalid_labels');
  const entries = Object.entries(raw);
  if (entries.length > IMPACT_POST_LIMITS.labelsPerSample) return refuse('too_many_labels');
  const labels: ImpactLabels = {};
  for (const [key, value] of entries) {
    const name = sanitiseImpactName(key);
    if (key.length > IMPACT_POST_LIMITS.labelNameLength || !validName(name)) return refuse('invalid_labels');
    if (typeof value !== 'string' && !finite(value)) return refuse('invalid_labels');
    const text = String(value);
    if (text.length > IMPACT_POST_LIMITS.labelValueLength) return refuse('invalid_labels');
    labels[name] = text;
  }
  return { ok: true, value: labels };
}

function admitNumeric(raw: unknown, type: 'counter' | 'gauge'): Admitted<NumericImpactSample> {
  if (!isRecord(raw)) return refuse('malformed');
  if (!finite(raw.value)) return refuse('invalid_value');
  // SDKs send a counter's increase since their last post (unleash-client clears it on each send), never less than 0.
  if (type === 'counter' && raw.value < 0) return refuse('negative_counter');
  const labels = admitLabels(raw.labels);
  return labels.ok ? { ok: true, value: { labels: labels.value, value: raw.value } } : labels;
}

function admitBuckets(raw: unknown, count: number): Admitted<ImpactBucket[]> {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > IMPACT_POST_LIMITS.bucketsPerSample)
    return refuse('invalid_buckets');
  const buckets: ImpactBucket[] = [];
  for (const bucket of raw) {
    if (!isRecord(bucket) || !finite(bucket.count) || bucket.count < 0) return refuse('invalid_buckets');
    if (bucket.le !== '+Inf' && !finite(bucket.le)) return refuse('invalid_buckets');
    buckets.push({ le: bucket.le, count: bucket.count });
  }
  const bound = (le: number | '+Inf') => (le === '+Inf' ? Infinity : le);
  buckets.sort((a, b) => bound(a.le) - bound(b.le));
  // Cumulative: each bucket holds at least the one below it; the last, +Inf, holds every observation.
  for (let index = 1; index < buckets.length; index += 1) {
    if (
      bound(buckets[index]!.le) === bound(buckets[index - 1]!.le) ||
      buckets[index]!.count < buckets[index - 1]!.count
    )
      return refuse('invalid_buckets');
  }
  if (buckets.at(-1)!.le !== '+Inf') buckets.push({ le: '+Inf', count });
  if (buckets.at(-1)!.count !== count) return refuse('invalid_buckets');
  return { ok: true, value: buckets };
}

function admitHistogram(raw: unknown): Admitted<HistogramImpactSample> {
  if (!isRecord(raw)) return refuse('malformed');
  if (!finite(raw.count) || raw.count < 0 || !finite(raw.sum)) return refuse('invalid_value');
  const buckets = admitBuckets(raw.buckets, raw.count);
  if (!buckets.ok) return buckets;
  const labels = admitLabels(raw.labels);
  return labels.ok
    ? { ok: true, value: { labels: labels.value, count: raw.count, sum: raw.sum, buckets: buckets.value } }
    : labels;
}

/** What admission kept of a post's impact metrics, and how many metrics or samples it left out for each reason. */
export type ImpactAdmission = { metrics: ImpactMetric[]; dropped: Partial<Record<ImpactDropReason, number>> };

/**
 * Reads a post's `impactMetrics` as leniently as the SDKs need: a malformed metric, or sample, is left out and
 * counted, and everything else is kept, so one bad metric never costs the flag counts in the same post.
 */
export function admitImpactMetrics(raw: unknown): ImpactAdmission {
  const dropped: Partial<Record<ImpactDropReason, number>> = {};
  const drop = (reason: ImpactDropReason, count = 1) => {
    dropped[reason] = (dropped[reason] ?? 0) + count;
  };
  const metrics: ImpactMetric[] = [];
  if (raw === undefined || raw === null) return { metrics, dropped };
  if (!Array.isArray(raw)) {
    drop('malformed');
    return { metrics, dropped };
  }
  if (raw.length > IMPACT_POST_LIMITS.metrics) drop('too_many_metrics', raw.length - IMPACT_POST_LIMITS.metrics);
  for (const entry of raw.slice(0, IMPACT_POST_LIMITS.metrics)) {
    if (!isRecord(entry) || !Array.isArray(entry.samples)) {
      drop('malformed');
      continue;
    }
    if (
      typeof entry.name !== 'string' ||
      entry.name.length === 0 ||
      entry.name.length > IMPACT_POST_LIMITS.nameLength ||
      !validName(sanitiseImpactName(entry.name))
    ) {
      drop('invalid_name');
      continue;
    }
    const type = entry.type;
    if (type !== 'counter' && type !== 'gauge' && type !== 'histogram') {
      drop('invalid_type');
      continue;
    }
    // As Unleash: a metric without a help text is left out (its exposition cannot be written without one).
    if (typeof entry.help !== 'string' || entry.help.length === 0) {
      drop('missing_help');
      continue;
    }
    const name = sanitiseImpactName(entry.name);
    const help = entry.help.slice(0, IMPACT_POST_LIMITS.helpLength);
    if (entry.samples.length > IMPACT_POST_LIMITS.samplesPerMetric)
      drop('too_many_samples', entry.samples.length - IMPACT_POST_LIMITS.samplesPerMetric);
    const rawSamples = entry.samples.slice(0, IMPACT_POST_LIMITS.samplesPerMetric);
    if (type === 'histogram') {
      const samples: HistogramImpactSample[] = [];
      for (const sample of rawSamples) {
        const admitted = admitHistogram(sample);
        if (admitted.ok) samples.push(admitted.value);
        else drop(admitted.reason);
      }
      if (samples.length > 0) metrics.push({ name, help, type, samples });
    } else {
      const samples: NumericImpactSample[] = [];
      for (const sample of rawSamples) {
        const admitted = admitNumeric(sample, type);
        if (admitted.ok) samples.push(admitted.value);
        else drop(admitted.reason);
      }
      if (samples.length > 0) metrics.push({ name, help, type, samples });
    }
  }
  return { metrics, dropped };
}

// Requests and answers of the impact-metrics API (Unleash's paths).

export const IMPACT_RANGES = ['hour', 'day', 'week', 'month'] as const;
export const ImpactRange = z.enum(IMPACT_RANGES);
export type ImpactRange = z.infer<typeof ImpactRange>;
export const IMPACT_AGGREGATIONS = ['rps', 'count', 'avg', 'sum', 'p50', 'p95', 'p99'] as const;
export const ImpactAggregation = z.enum(IMPACT_AGGREGATIONS);
export type ImpactAggregation = z.infer<typeof ImpactAggregation>;
export const ImpactSource = z.enum(['internal', 'external']);
export type ImpactSource = z.infer<typeof ImpactSource>;

/** Label selectors: the values a series' label must have one of (all of them, label by label). */
export const ImpactLabelSelectors = z.record(z.string().min(1).max(100), z.array(z.string().max(200)).max(100));
export type ImpactLabelSelectors = z.infer<typeof ImpactLabelSelectors>;

/** A metric, as queries and safeguards name it: which, over what range, aggregated how, of which series. */
export const ImpactMetricQuery = z.object({
  metricName: z.string().min(1).max(300),
  timeRange: ImpactRange,
  aggregationMode: ImpactAggregation,
  labelSelectors: ImpactLabelSelectors.default({}),
  source: ImpactSource.default('internal'),
});
export type ImpactMetricQuery = z.infer<typeof ImpactMetricQuery>;

/** GET /api/admin/impact-metrics/: `labels` is a JSON object of label selectors. */
export const ImpactMetricsDataQuery = z.object({
  metricName: z.string().min(1).max(300),
  range: ImpactRange,
  aggregationMode: ImpactAggregation.default('count'),
  labels: z.string().max(10_000).optional(),
  source: ImpactSource.default('internal'),
  /** `display` leaves out the label values a filter needs (cheaper for dashboards); `edit`, the default, sends them. */
  mode: z.enum(['display', 'edit']).optional(),
});

/** One series: its labels, and [epoch seconds, value as text] per step, as Prometheus' HTTP API writes them. */
export const ImpactSeries = z.object({
  metric: z.record(z.string(), z.string()),
  data: z.array(z.tuple([z.number(), z.string()])),
});

/** GET /api/admin/impact-metrics/ */
/** The help text of bunting_impact_metrics_dropped_total, which the SDK edge and insights both count into. */
export const IMPACT_DROPS_HELP =
  'Impact metrics or samples left out, by the stage that dropped them, why, and the environment they came from';

export const ImpactMetricsData = z.object({
  /** Epoch seconds, as text. */
  start: z.string(),
  end: z.string(),
  /** Between two points: 1m, 15m, 3h or 1d. */
  step: z.string(),
  series: z.array(ImpactSeries),
  /** The label values the metric's series have, by label: what a filter offers. */
  labels: z.record(z.string(), z.array(z.string())),
  debug: z
    .object({ metricType: z.string().optional(), isTruncated: z.boolean().optional(), query: z.string().optional() })
    .optional(),
});
export type ImpactMetricsData = z.infer<typeof ImpactMetricsData>;

export const ImpactMetricInfo = z.object({
  name: z.string(),
  displayName: z.string(),
  help: z.string(),
  type: z.enum([...IMPACT_METRIC_TYPES, 'unknown']),
  source: ImpactSource,
});
export type ImpactMetricInfo = z.infer<typeof ImpactMetricInfo>;

/** GET /api/admin/impact-metrics/metadata */
export const ImpactMetricsMetadata = z.object({ metrics: z.array(ImpactMetricInfo) });

/** POST /api/admin/impact-metrics/register: a metric known before any SDK sends it, at zero. */
export const RegisterImpactMetric = z.object({
  name: z
    .string()
    .min(1)
    .max(IMPACT_POST_LIMITS.nameLength)
    .regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, 'must start with a letter, _ or : and hold only letters, digits, _ and :'),
  type: ImpactMetricType,
  help: z.string().max(IMPACT_POST_LIMITS.helpLength).optional(),
});

/** A chart of an impact metric on a flag's page (Unleash's impact metrics configuration). */
export const ImpactChartInput = z.object({
  id: z
    .string()
    .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'is not a ULID')
    .optional(),
  metricName: z.string().min(1).max(300),
  timeRange: ImpactRange,
  aggregationMode: ImpactAggregation,
  labelSelectors: ImpactLabelSelectors,
  yAxisMin: z.enum(['auto', 'zero']),
  title: z.string().max(255).optional(),
  source: ImpactSource.optional(),
});
export type ImpactChartInput = z.infer<typeof ImpactChartInput>;

export const IMPACT_STEPS = ['1m', '15m', '3h', '1d'] as const;

export const ImpactChart = ImpactChartInput.required({ id: true }).extend({
  displayName: z.string(),
  /** read: a safeguard watches it, so it is changed through the safeguard. */
  mode: z.enum(['read', 'write']),
  step: z.enum(IMPACT_STEPS).nullable(),
});
export type ImpactChart = z.infer<typeof ImpactChart>;

/** GET /api/admin/projects/{projectId}/features/{featureName}/impact-metrics/config */
export const ImpactChartList = z.object({ configs: z.array(ImpactChart) });

/** An external Prometheus-compatible source (its HTTP API at `url`); basic-auth credentials may sit in the URL. */
export const ExternalImpactSource = z.object({
  enabled: z.boolean(),
  url: z
    .url({ protocol: /^https?$/ })
    .max(1000)
    .optional(),
});
export type ExternalImpactSource = z.infer<typeof ExternalImpactSource>;

/** POST /api/admin/impact-metrics/external-source/validate */
export const ValidateExternalImpactSource = z.object({ url: z.url({ protocol: /^https?$/ }).max(1000) });
/** The metric names the source has, or why it could not be read. */
export const ExternalImpactSourceCheck = z.object({ metrics: z.array(z.string()), error: z.string().optional() });
