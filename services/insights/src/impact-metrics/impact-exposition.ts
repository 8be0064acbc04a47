import type { ImpactMetricType } from '@bunting/contracts';

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

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const number = (value: number) => (value === Infinity ? '+Inf' : String(value));
const labelText = (labels: Record<string, string>) => {
  const parts = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
};

/**
 * The impact metrics in Prometheus' text exposition format, for a user's Prometheus to scrape: each series' counter
 * total since it began, gauge's last value, histogram's cumulative buckets, sum and count. A metric registered
 * before any SDK sent it shows at zero.
 */
export function impactExposition(
  series: readonly Exposed[],
  registered: readonly { name: string; type: ImpactMetricType; help: string }[],
): string {
  const lines: string[] = [];
  const byMetric = new Map<string, Exposed[]>();
  for (const one of series) byMetric.set(one.metric, [...(byMetric.get(one.metric) ?? []), one]);
  for (const metric of registered) if (!byMetric.has(metric.name)) byMetric.set(metric.name, []);
  const info = new Map<string, { type: ImpactMetricType; help: string }>();
  for (const one of series) info.set(one.metric, one);
  for (const metric of registered) info.set(metric.name, metric);
  for (const [name, members] of [...byMetric].sort(([a], [b]) => a.localeCompare(b))) {
    const { type, help } = info.get(name)!;
    lines.push(`# HELP ${name} ${escapeHelp(help || name)}`, `# TYPE ${name} ${type}`);
    if (members.length === 0 && type !== 'histogram') lines.push(`${name} 0`);
    for (const one of members) {
      if (type !== 'histogram') {
        lines.push(`${name}${labelText(one.labels)} ${number(one.total)}`);
        continue;
      }
      (one.bounds ?? []).forEach((bound, index) =>
        lines.push(
          `${name}_bucket${labelText({ ...one.labels, le: number(bound) })} ${number(one.totalBuckets?.[index] ?? 0)}`,
        ),
      );
      lines.push(
        `${name}_sum${labelText(one.labels)} ${number(one.totalSum ?? 0)}`,
        `${name}_count${labelText(one.labels)} ${number(one.total)}`,
      );
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
