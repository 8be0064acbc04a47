import type { MetricsMessage } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { ImpactLimits } from './impact-limits.ts';
import { impactPointsOf, mergeImpactPoints, type DropCounter, type ImpactPoint } from './impact-points.ts';
import { IMPACT_RESOLUTIONS, impactStore, type SeriesRef } from './impact-store.ts';

const periodOf = (at: string, ms: number) => new Date(Math.floor(Date.parse(at) / ms) * ms).toISOString();
const seriesKey = (metric: string, labelKey: string) => `${metric}\u0000${labelKey}`;
const sameBounds = (a: readonly number[] | null, b: readonly number[] | null) => (a === null && b === null) || (a !== null && b !== null && a.length === b.length && a.every((bound, index) => bound === b[index]));

/**
 * The series the points belong to, made for those new while their metric is under its series limit (a series over
 * it, or with more labels than allowed, is dropped and counted). A histogram point whose bounds differ from its
 * series' is dropped too.
 */
async function seriesFor(tx: Queryable, points: readonly ImpactPoint[], limits: ImpactLimits, seenAt: string, drop: DropCounter): Promise<Map<string, SeriesRef>> {
  const wanted = new Map<string, ImpactPoint>();
  for (const point of points) wanted.set(seriesKey(point.metric, point.labelKey), point);
  const known = new Map<string, SeriesRef>();
  const remember = (rows: readonly { id: number; metric: string; labelKey: string; bounds: number[] | null }[]) => {
    for (const row of rows) known.set(seriesKey(row.metric, row.labelKey), { id: row.id, bounds: row.bounds });
  };
  remember(await impactStore.seriesOf(tx, [...wanted.values()]));
  const fresh = [...wanted].filter(([key]) => !known.has(key)).map(([, point]) => point);
  if (fresh.length > 0) {
    await impactStore.lockSeries(tx);
    remember(await impactStore.seriesOf(tx, fresh));
    const counts = await impactStore.seriesCounts(tx, [...new Set(fresh.map((point) => point.metric))]);
    const creating = [];
    for (const point of fresh) {
      if (known.has(seriesKey(point.metric, point.labelKey))) continue;
      if (Object.keys(point.labels).length > limits.labelsPerSeries) { drop('series_labels_over_limit'); continue; }
      const count = counts.get(point.metric) ?? 0;
      if (count >= limits.seriesPerMetric) { drop('too_many_series'); continue; }
      counts.set(point.metric, count + 1);
      creating.push({ metric: point.metric, labelKey: point.labelKey, labels: point.labels, bounds: point.bounds });
    }
    remember(await impactStore.createSeries(tx, creating, seenAt));
  }
  return known;
}

/**
 * Records the impact metrics of a run of metrics messages, in the caller's transaction (the one that records the
 * messages' sequences, so a redelivered message adds nothing): per series, one row per minute and one per hour,
 * however many posts fed them, and the series' totals for the Prometheus exposition.
 */
export async function recordImpactMetrics(tx: Queryable, messages: readonly MetricsMessage[], limits: ImpactLimits, drop: DropCounter): Promise<void> {
  const points = mergeImpactPoints(messages.flatMap((message) => impactPointsOf(message, drop)), drop);
  if (points.length === 0) return;
  const seenAt = messages.map((message) => message.receivedAt).sort().at(-1)!;
  const metrics = new Map(points.map((point) => [point.metric, { name: point.metric, type: point.type, help: point.help }]));
  const admitted = await impactStore.admitMetrics(tx, [...metrics.values()], seenAt, limits.metrics);
  const kept = points.filter((point) => {
    if (admitted.has(point.metric)) return true;
    drop('too_many_metrics');
    return false;
  });
  const series = await seriesFor(tx, kept, limits, seenAt, drop);
  const placed = kept.flatMap((point) => {
    const ref = series.get(seriesKey(point.metric, point.labelKey));
    if (!ref) return [];
    if (!sameBounds(ref.bounds, point.bounds)) {
      drop('bucket_mismatch');
      return [];
    }
    return [{ seriesId: ref.id, at: point.at, point }];
  });
  // Per period: the points of a period made one first (in time order, so a gauge keeps its latest value).
  const byTime = [...placed].sort((a, b) => a.at.localeCompare(b.at));
  const idOf = new Map(placed.map((row) => [seriesKey(row.point.metric, row.point.labelKey), row.seriesId]));
  for (const resolution of IMPACT_RESOLUTIONS) {
    const merged = mergeImpactPoints(byTime.map(({ point }) => ({ ...point, at: periodOf(point.at, resolution * 1000) })), drop);
    await impactStore.addPoints(tx, resolution, merged.map((point) => ({ seriesId: idOf.get(seriesKey(point.metric, point.labelKey))!, at: point.at, point })));
  }
  // Totals: every point of the run made one per series (a gauge's latest value).
  const totals = mergeImpactPoints(byTime.map(({ point }) => ({ ...point, at: '' })), drop);
  await impactStore.addToTotals(tx, totals.map((point) => ({ seriesId: idOf.get(seriesKey(point.metric, point.labelKey))!, point })), seenAt);
}
