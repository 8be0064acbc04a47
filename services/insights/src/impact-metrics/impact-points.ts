import {
  admitImpactMetrics,
  impactSeriesName,
  metricsEnvironment,
  type ImpactDropReason,
  type ImpactLabels,
  type ImpactMetricType,
  type MetricsMessage,
} from '@bunting/contracts';

/** One series' share of a minute: a counter's increase, a gauge's value, a histogram's observations. */
export type ImpactPoint = {
  metric: string;
  type: ImpactMetricType;
  help: string;
  labels: ImpactLabels;
  /** The labels as one text, in name order: what tells two series of a metric apart. */
  labelKey: string;
  /** The minute, as an ISO time. */
  at: string;
  value: number;
  sum: number | null;
  /** A histogram's upper bounds, Infinity last, and its cumulative count at each. */
  bounds: number[] | null;
  buckets: number[] | null;
};

/** Counts what was left out, by reason and the environment it came from (when known). */
export type DropCounter = (reason: ImpactDropReason, count?: number, environment?: string) => void;

const MINUTE_MS = 60_000;

export const labelKeyOf = (labels: ImpactLabels) =>
  JSON.stringify(
    Object.keys(labels)
      .sort()
      .map((name) => [name, labels[name]]),
  );

const minuteOf = (receivedAt: string) =>
  new Date(Math.floor(Date.parse(receivedAt) / MINUTE_MS) * MINUTE_MS).toISOString();

/** What the post's metadata adds to each sample's labels: where it came from, which app, which environment. */
function addedLabels(
  message: Extract<MetricsMessage, { kind: 'client-metrics' | 'bulk-metrics' }>,
  sample: ImpactLabels,
): ImpactLabels | null {
  const bulk = message.kind === 'bulk-metrics';
  const claimed = sample.environment ?? (bulk ? undefined : message.body.environment);
  // A token bound to an environment speaks for it alone; an all-environments token's post names its own.
  const environment = message.environment === '*' ? (claimed ?? 'default') : metricsEnvironment(message, undefined);
  if (environment === undefined) return null;
  const appName = bulk ? sample.appName : (message.body as { appName?: string }).appName;
  // An edge that forwards labels what came through it (Bunting's does); otherwise it came from an SDK, as in Unleash.
  return { ...(appName ? { appName } : {}), environment, origin: sample.origin ?? 'sdk' };
}

/** The impact metrics a metrics message carries, as points; a metric or sample it cannot use is counted in `drop`. */
export function impactPointsOf(message: MetricsMessage, drop: DropCounter): ImpactPoint[] {
  if (message.kind !== 'client-metrics' && message.kind !== 'bulk-metrics') return [];
  const { metrics, dropped } = admitImpactMetrics(message.body.impactMetrics);
  for (const [reason, count] of Object.entries(dropped)) drop(reason as ImpactDropReason, count, message.environment);
  const at = minuteOf(message.receivedAt);
  const points: ImpactPoint[] = [];
  for (const metric of metrics) {
    const name = impactSeriesName(metric.type, metric.name);
    for (const sample of metric.samples) {
      const added = addedLabels(message, sample.labels);
      if (!added) continue;
      const labels = { ...sample.labels, ...added };
      const point = { metric: name, type: metric.type, help: metric.help, labels, labelKey: labelKeyOf(labels), at };
      if ('buckets' in sample) {
        const bounds = sample.buckets.map((bucket) => (bucket.le === '+Inf' ? Infinity : bucket.le));
        points.push({
          ...point,
          value: sample.count,
          sum: sample.sum,
          bounds,
          buckets: sample.buckets.map((bucket) => bucket.count),
        });
      } else {
        points.push({ ...point, value: sample.value, sum: null, bounds: null, buckets: null });
      }
    }
  }
  return points;
}

const sameBounds = (a: readonly number[] | null, b: readonly number[] | null) =>
  a !== null && b !== null && a.length === b.length && a.every((bound, index) => bound === b[index]);

/**
 * Points of the same series and minute made one, in the order given: increases and observations added, a gauge's
 * later value kept. A histogram point whose bounds differ from the first one's is dropped: its counts cannot be added.
 */
export function mergeImpactPoints(points: readonly ImpactPoint[], drop: DropCounter): ImpactPoint[] {
  const merged = new Map<string, ImpactPoint>();
  for (const point of points) {
    const key = `${point.metric}\u0000${point.labelKey}\u0000${point.at}`;
    const held = merged.get(key);
    if (!held) {
      merged.set(key, { ...point, buckets: point.buckets && [...point.buckets] });
      continue;
    }
    if (point.type === 'gauge') held.value = point.value;
    else if (point.type === 'counter') held.value += point.value;
    else if (!sameBounds(held.bounds, point.bounds)) drop('bucket_mismatch', 1, point.labels.environment);
    else {
      held.value += point.value;
      held.sum = (held.sum ?? 0) + (point.sum ?? 0);
      held.buckets = held.buckets!.map((count, index) => count + point.buckets![index]!);
    }
    if (point.help) held.help = point.help;
  }
  return [...merged.values()];
}
