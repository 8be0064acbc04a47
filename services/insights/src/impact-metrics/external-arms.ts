import {
  parseImpactSeriesName,
  sanitiseImpactName,
  type ImpactArmsView,
  type ImpactLabelSelectors,
} from '@bunting/contracts';
import { ValidationError } from '@bunting/platform';
import type { z } from 'zod';
import { quoted, type externalSource } from './external-source.ts';
import { squaresFromBuckets } from './impact-arms.ts';

type Totals = z.infer<typeof ImpactArmsView.answer>['on'];
type Sides = { type: 'counter' | 'histogram' | 'gauge' | null; series: number; on: Totals; off: Totals };
type Source = ReturnType<typeof externalSource>;

const HOUR = 3_600_000;
const EMPTY: Totals = { total: 0, observations: null, squares: null };

/**
 * The selector of a guardrail's series at the source: the metric with the flag's label present, in the environment
 * (or without an environment label: an application's own exporter may not set one), and the safeguard's selectors.
 */
function selectorOf(name: string, label: string, environment: string, selectors: ImpactLabelSelectors): string {
  const matchers = [`${label}!=""`, `environment=~"${quoted(environment)}|"`];
  for (const [key, values] of Object.entries(selectors)) {
    if (values.length > 0) matchers.push(`${key}=~"${values.map(quoted).join('|')}"`);
  }
  return `${name}{${matchers.join(',')}}`;
}

/**
 * A guardrail's two sides read from the external Prometheus-compatible source: each series' increase from the hour
 * of `since` to now, summed by the flag's label value (`disabled` the control, any other the change), as Bunting's
 * own series are summed. A histogram's Σx² comes from its buckets. The type is read off Unleash's metric name
 * (`unleash_<type>_...`); any other is taken as a counter, as the external query API takes it as a gauge.
 */
export async function externalArms(
  source: Source,
  query: { metricName: string; featureName: string; environment: string; labelSelectors: ImpactLabelSelectors },
  since: string,
  now = Date.now(),
): Promise<Sides> {
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(query.metricName))
    throw ValidationError.field('metricName', 'is not a Prometheus metric name');
  for (const key of Object.keys(query.labelSelectors))
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(key))
      throw ValidationError.field('labelSelectors', `${key} is not a Prometheus label name`);
  const named = parseImpactSeriesName(query.metricName)?.type;
  const type = named === 'histogram' ? 'histogram' : named === 'gauge' ? 'gauge' : 'counter';
  if (type === 'gauge') return { type, series: 0, on: EMPTY, off: EMPTY };
  const label = sanitiseImpactName(query.featureName);
  const fromHour = Math.floor(Date.parse(since) / HOUR) * HOUR;
  const range = `${Math.max(1, Math.round((now - fromHour) / 1000))}s`;
  const increase = (name: string, by: string) =>
    `sum by (${by}) (increase(${selectorOf(name, label, query.environment, query.labelSelectors)}[${range}]))`;
  const sideOf = (labels: Record<string, string>) => (labels[label] === 'disabled' ? 'off' : 'on');

  if (type === 'counter') {
    const rows = await source.vector(increase(query.metricName, label), now);
    const totals = { on: 0, off: 0 };
    for (const row of rows) totals[sideOf(row.labels)] += row.value;
    return {
      type,
      series: rows.length,
      on: { total: totals.on, observations: null, squares: null },
      off: { total: totals.off, observations: null, squares: null },
    };
  }
  const [sums, counts, buckets] = await Promise.all([
    source.vector(increase(`${query.metricName}_sum`, label), now),
    source.vector(increase(`${query.metricName}_count`, label), now),
    source.vector(increase(`${query.metricName}_bucket`, `${label}, le`), now),
  ]);
  const side = (which: 'on' | 'off'): Totals => {
    const mine = <T extends { labels: Record<string, string> }>(rows: readonly T[]) =>
      rows.filter((row) => sideOf(row.labels) === which);
    // Cumulative counts per bound, summed over the side's label values (each value's buckets are cumulative).
    const byBound = new Map<number, number>();
    for (const row of mine(buckets)) {
      const bound = row.labels.le === '+Inf' ? Infinity : Number(row.labels.le);
      if (Number.isFinite(bound) || bound === Infinity) byBound.set(bound, (byBound.get(bound) ?? 0) + row.value);
    }
    const bounds = [...byBound.keys()].sort((a, b) => a - b);
    return {
      total: mine(sums).reduce((total, row) => total + row.value, 0),
      observations: mine(counts).reduce((total, row) => total + row.value, 0),
      squares: squaresFromBuckets(
        bounds,
        bounds.map((bound) => byBound.get(bound)!),
      ),
    };
  };
  return { type, series: counts.length, on: side('on'), off: side('off') };
}
