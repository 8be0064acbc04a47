import type {
  ImpactAggregation,
  ImpactLabelSelectors,
  ImpactMetricsData,
  ImpactMetricType,
  ImpactRange,
} from '@bunting/contracts';
import { ValidationError, type Queryable } from '@bunting/platform';
import { impactStore } from './impact-store.ts';
import { IMPACT_WINDOWS, stepsOf } from './impact-windows.ts';
import { histogramQuantile } from './histogram-quantile.ts';

/** A query of one metric's series: which, over what range, aggregated how. */
export type ImpactQuery = {
  metricName: string;
  range: ImpactRange;
  aggregationMode: ImpactAggregation;
  labels: ImpactLabelSelectors;
  withLabels: boolean;
};

/** Which aggregations each type has: a counter's rate or increase, a gauge's mean or sum, a histogram's all. */
export const AGGREGATIONS: Record<ImpactMetricType, readonly ImpactAggregation[]> = {
  counter: ['count', 'rps', 'sum', 'avg'],
  gauge: ['avg', 'sum', 'count'],
  histogram: ['p50', 'p95', 'p99', 'count', 'rps', 'avg', 'sum'],
};

export const QUANTILES: Partial<Record<ImpactAggregation, number>> = { p50: 0.5, p95: 0.95, p99: 0.99 };
/** Values as Prometheus' HTTP API writes them: text, without float noise. */
const text = (value: number) => String(Number(value.toPrecision(12)));
const seconds = (ms: number) => Math.floor(ms / 1000);

export const matchesSelectors = (labels: Record<string, string>, selectors: ImpactLabelSelectors) =>
  Object.entries(selectors).every(
    ([name, values]) => values.length === 0 || values.includes(Object.hasOwn(labels, name) ? labels[name]! : ''),
  );

/** The label values a metric's series have, by label (at most 100 values a label): what a filter offers. */
export function labelValues(series: readonly { labels: Record<string, string> }[]): Record<string, string[]> {
  const values = new Map<string, Set<string>>();
  for (const { labels } of series) {
    for (const [name, value] of Object.entries(labels)) {
      const held = values.get(name) ?? new Set<string>();
      if (held.size < 100) held.add(value);
      values.set(name, held);
    }
  }
  return Object.fromEntries(
    [...values].sort(([a], [b]) => a.localeCompare(b)).map(([name, set]) => [name, [...set].sort()]),
  );
}

/** The catalogue's metric a query names: by its stored name (unleash_counter_x) or, when one metric has it, its display name. */
export async function metricNamed(db: Queryable, metricName: string) {
  const exact = await impactStore.metric(db, metricName);
  if (exact) return exact;
  const byDisplayName = (await impactStore.catalogue(db)).filter(
    (metric) => metric.name.replace(/^unleash_(counter|gauge|histogram)_/, '') === metricName,
  );
  return byDisplayName.length === 1 ? byDisplayName[0]! : null;
}

/**
 * The metric's matching series aggregated into one line over the range, a point per step (`[epoch seconds, value]`),
 * as Unleash's chart and safeguards read it. Steps where a counter or histogram saw nothing are 0; a gauge's or a
 * quantile's are left out. An unknown metric answers no series.
 */
export async function queryImpactMetric(
  db: Queryable,
  query: ImpactQuery,
  now = Date.now(),
): Promise<ImpactMetricsData> {
  const window = IMPACT_WINDOWS[query.range];
  const { start, end, steps } = stepsOf(window, now);
  const answer: ImpactMetricsData = {
    start: String(seconds(start)),
    end: String(seconds(end)),
    step: window.step,
    series: [],
    labels: {},
  };
  const metric = await metricNamed(db, query.metricName);
  if (!metric) return answer;
  if (!AGGREGATIONS[metric.type].includes(query.aggregationMode)) {
    throw ValidationError.field(
      'aggregationMode',
      `${query.aggregationMode} does not apply to a ${metric.type}; use one of ${AGGREGATIONS[metric.type].join(', ')}`,
    );
  }
  const all = await impactStore.seriesOfMetric(db, metric.name);
  const matching = all.filter((series) => matchesSelectors(series.labels, query.labels));
  answer.debug = { metricType: metric.type };
  if (query.withLabels) answer.labels = labelValues(all);
  if (matching.length === 0) return answer;

  const ids = matching.map((series) => series.id);
  const since = new Date(start).toISOString();
  const stepSeconds = window.stepMs / 1000;
  const values = new Map<number, number>();
  if (metric.type === 'counter') {
    const rows = await impactStore.counterSteps(db, window.resolution, ids, since, window.stepMs);
    for (const row of rows)
      values.set(
        row.step,
        query.aggregationMode === 'rps'
          ? row.value / stepSeconds
          : query.aggregationMode === 'avg'
            ? row.value / row.series
            : row.value,
      );
    for (const step of steps) if (!values.has(step)) values.set(step, 0);
  } else if (metric.type === 'gauge') {
    const rows = await impactStore.gaugeSteps(db, window.resolution, ids, since, window.stepMs);
    for (const row of rows)
      values.set(
        row.step,
        query.aggregationMode === 'sum' ? row.total : query.aggregationMode === 'count' ? row.series : row.mean,
      );
  } else {
    const bounds = matching[0]!.bounds ?? [];
    const sameBounds = matching
      .filter((series) => JSON.stringify(series.bounds) === JSON.stringify(bounds))
      .map((series) => series.id);
    const rows = await impactStore.histogramSteps(db, window.resolution, sameBounds, since, window.stepMs);
    const quantile = QUANTILES[query.aggregationMode];
    for (const row of rows) {
      if (quantile !== undefined) {
        const value = histogramQuantile(quantile, bounds, row.buckets);
        if (value !== null) values.set(row.step, value);
      } else if (query.aggregationMode === 'avg') {
        if (row.count > 0) values.set(row.step, row.sum / row.count);
      } else {
        values.set(
          row.step,
          query.aggregationMode === 'rps'
            ? row.count / stepSeconds
            : query.aggregationMode === 'sum'
              ? row.sum
              : row.count,
        );
      }
    }
    if (quantile === undefined && query.aggregationMode !== 'avg')
      for (const step of steps) if (!values.has(step)) values.set(step, 0);
  }
  const pinned = Object.fromEntries(
    Object.entries(query.labels)
      .filter(([, chosen]) => chosen.length === 1)
      .map(([name, chosen]) => [name, chosen[0]!]),
  );
  answer.series = [
    {
      metric: { __name__: metric.name, ...pinned },
      data: steps
        .filter((step) => values.has(step))
        .map((step) => [seconds(step), text(values.get(step)!)] as [number, string]),
    },
  ];
  return answer;
}
