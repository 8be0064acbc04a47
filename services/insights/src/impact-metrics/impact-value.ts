import type { ImpactAggregation, ImpactLabelSelectors, ImpactRange } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { histogramQuantile } from './histogram-quantile.ts';
import { AGGREGATIONS, QUANTILES, matchesSelectors, metricNamed } from './impact-query.ts';
import { impactStore } from './impact-store.ts';
import { IMPACT_WINDOWS } from './impact-windows.ts';

export type ImpactValueQuery = {
  metricName: string;
  timeRange: ImpactRange;
  aggregationMode: ImpactAggregation;
  labelSelectors: ImpactLabelSelectors;
};

/** One bucket holding every row since the window's start: the steps' queries with a step longer than any window. */
const WHOLE = 10 ** 13;

/**
 * An impact metric's value now, as a safeguard reads it: the matching series aggregated over a sliding window (the
 * previous step and the one running, so a value does not drop to nothing at each step's start). A counter's rate
 * is its increase over the window's elapsed seconds. Null when the metric or its series have nothing to go by
 * (a counter with no increase is 0).
 */
export async function impactValueNow(db: Queryable, query: ImpactValueQuery, now = Date.now()): Promise<number | null> {
  const window = IMPACT_WINDOWS[query.timeRange];
  const metric = await metricNamed(db, query.metricName);
  if (!metric || !AGGREGATIONS[metric.type].includes(query.aggregationMode)) return null;
  const ids = (await impactStore.seriesOfMetric(db, metric.name)).filter((series) =>
    matchesSelectors(series.labels, query.labelSelectors),
  );
  const since = Math.floor(now / window.stepMs) * window.stepMs - window.stepMs;
  const seconds = Math.max(1, (now - since) / 1000);
  const from = new Date(since).toISOString();
  if (ids.length === 0) return metric.type === 'counter' ? 0 : null;
  const seriesIds = ids.map((series) => series.id);
  if (metric.type === 'counter') {
    const [row] = await impactStore.counterSteps(db, window.resolution, seriesIds, from, WHOLE);
    const increase = row?.value ?? 0;
    if (query.aggregationMode === 'rps') return increase / seconds;
    if (query.aggregationMode === 'avg') return row ? increase / row.series : 0;
    return increase;
  }
  if (metric.type === 'gauge') {
    const [row] = await impactStore.gaugeSteps(db, window.resolution, seriesIds, from, WHOLE);
    if (!row) return null;
    return query.aggregationMode === 'sum' ? row.total : query.aggregationMode === 'count' ? row.series : row.mean;
  }
  const bounds = ids[0]!.bounds ?? [];
  const alike = ids
    .filter((series) => JSON.stringify(series.bounds) === JSON.stringify(bounds))
    .map((series) => series.id);
  const [row] = await impactStore.histogramSteps(db, window.resolution, alike, from, WHOLE);
  if (!row) return query.aggregationMode === 'count' || query.aggregationMode === 'rps' ? 0 : null;
  const quantile = QUANTILES[query.aggregationMode];
  if (quantile !== undefined) return histogramQuantile(quantile, bounds, row.buckets);
  if (query.aggregationMode === 'avg') return row.count > 0 ? row.sum / row.count : null;
  if (query.aggregationMode === 'rps') return row.count / seconds;
  return query.aggregationMode === 'sum' ? row.sum : row.count;
}
