import { parseImpactSeriesName, type ImpactMetricType } from '@bunting/contracts';

type Exposed = {
  metric: string;
  type: ImpactMetricType;
  help: string;
  labels: Record<string, string>;
  bounds: number[] | null;
  total: number;
  totalSum: number | null;
  totalBuckets: number[] | null;
};

/** One exposed series: the stored series that share its labels once the ones Unleash does not expose are gone. */
type Merged = { labels: Record<string, string>; total: number; sum: number; bounds: number[]; buckets: number[] };

// Bunting keeps which app and environment sent a series for its own queries; Unleash's exposition has neither.
const KEPT_OUT = new Set(['appName', 'environment']);

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const number = (value: number) => (value === Infinity ? '+Inf' : String(value));
const labelText = (labels: Record<string, string>) => {
  const parts = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
};

/**
 * A series' labels as Unleash exposes them: origin, metric_type, then the SDK's own (a histogram's in name order, as
 * Unleash's histogram writes them; the order means nothing to Prometheus).
 */
function exposedLabels(type: ImpactMetricType, labels: Record<string, string>): Record<string, string> {
  const own = Object.entries(labels).filter(([name]) => !KEPT_OUT.has(name) && name !== 'origin');
  const all: [string, string][] = [['origin', labels.origin ?? 'sdk'], ['metric_type', type], ...own];
  if (type === 'histogram') all.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(all);
}

/**
 * Adds a stored series into the exposed one with its labels: counters and histograms add up; a gauge keeps the value
 * of the series given last (the caller gives them oldest first). A histogram's buckets add up at the bounds the first
 * one has (an SDK keeps its bounds, so series of one metric share them).
 */
function merge(into: Merged | undefined, one: Exposed, labels: Record<string, string>): Merged {
  const bounds = one.bounds ?? [];
  const buckets = one.totalBuckets ?? bounds.map(() => 0);
  if (!into) return { labels, total: one.total, sum: one.totalSum ?? 0, bounds, buckets: [...buckets] };
  if (one.type === 'gauge') return { ...into, total: one.total };
  into.total += one.total;
  into.sum += one.totalSum ?? 0;
  bounds.forEach((bound, index) => {
    const at = into.bounds.indexOf(bound);
    if (at >= 0) into.buckets[at]! += buckets[index] ?? 0;
  });
  return into;
}

/**
 * The impact metrics in Prometheus' text exposition format, as Unleash exposes them for a Prometheus to scrape: each
 * metric under the name and help text the SDK gave, labelled with its origin, its type (`metric_type`) and the SDK's
 * labels; a counter's total since it began, a gauge's last value, a histogram's cumulative buckets, sum and count. A
 * metric registered before any SDK sent it shows at zero.
 */
export function impactExposition(
  series: readonly Exposed[],
  registered: readonly { name: string; type: ImpactMetricType; help: string }[],
): string {
  // Keyed by the SDK's name. Two types under one name (an SDK changed a metric's type) cannot both be exposed under
  // it: the first kept wins, as a Prometheus registry keeps one metric a name.
  const metrics = new Map<string, { type: ImpactMetricType; help: string; merged: Map<string, Merged> }>();
  const metricOf = (stored: string, type: ImpactMetricType, help: string) => {
    const name = parseImpactSeriesName(stored)?.displayName ?? stored;
    const entry = metrics.get(name) ?? metrics.set(name, { type, help, merged: new Map() }).get(name)!;
    return entry.type === type ? entry : undefined;
  };
  for (const metric of registered) metricOf(metric.name, metric.type, metric.help);
  for (const one of series) {
    const entry = metricOf(one.metric, one.type, one.help);
    if (!entry) continue;
    if (one.help) entry.help = one.help;
    const labels = exposedLabels(one.type, one.labels);
    const key = JSON.stringify(labels);
    entry.merged.set(key, merge(entry.merged.get(key), one, labels));
  }
  const lines: string[] = [];
  for (const [name, { type, help, merged }] of [...metrics].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`# HELP ${name} ${escapeHelp(help || name)}`, `# TYPE ${name} ${type}`);
    if (merged.size === 0 && type !== 'histogram') lines.push(`${name} 0`);
    for (const one of merged.values()) {
      if (type !== 'histogram') {
        lines.push(`${name}${labelText(one.labels)} ${number(one.total)}`);
        continue;
      }
      one.bounds.forEach((bound, index) =>
        lines.push(`${name}_bucket${labelText({ ...one.labels, le: number(bound) })} ${number(one.buckets[index]!)}`),
      );
      lines.push(
        `${name}_sum${labelText(one.labels)} ${number(one.sum)}`,
        `${name}_count${labelText(one.labels)} ${number(one.total)}`,
      );
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
