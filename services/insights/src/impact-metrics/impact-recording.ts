import type { MetricsMessage } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { ImpactLimits } from './impact-limits.ts';
import { impactPointsOf, mergeImpactPoints, type DropCounter, type ImpactPoint } from './impact-points.ts';
import { IMPACT_RESOLUTIONS, impactStore, type SeriesRef } from './impact-store.ts';

const periodOf = (at: string, ms: number) => new Date(Math.floor(Date.parse(at) / ms) * ms).toISOString();
const seriesKey = (metric: string, labelKey: string) => `${metric}\u0000${labelKey}`;
const sameBounds = (a: readonly number[] | null, b: readonly number[] | null) =>
  (a === null && b === null) ||
  (a !== null && b !== null && a.length === b.length && a.every((bound, index) => bound === b[index]));

const environmentOf = (point: ImpactPoint) => point.labels.environment ?? '';
const appOf = (point: ImpactPoint) => point.labels.appName ?? '';

/**
 * The series the points belong to, made for those new within their environment's limits: its metrics, its series in
 * all, and each application's series of a metric (a series over a limit, or with more labels than allowed, is dropped
 * and counted, by environment). One environment's SDKs filling their share leave every other environment's, and
 * within one the other applications', untouched. A histogram point whose bounds differ from its series' is dropped.
 */
async function seriesFor(
  tx: Queryable,
  points: readonly ImpactPoint[],
  limits: ImpactLimits,
  seenAt: string,
  drop: DropCounter,
): Promise<Map<string, SeriesRef>> {
  const wanted = new Map<string, ImpactPoint>();
  for (const point of points) wanted.set(seriesKey(point.metric, point.labelKey), point);
  const known = new Map<string, SeriesRef>();
  const remember = (rows: readonly { id: number; metric: string; labelKey: string; bounds: number[] | null }[]) => {
    for (const row of rows) known.set(seriesKey(row.metric, row.labelKey), { id: row.id, bounds: row.bounds });
  };
  remember(await impactStore.seriesOf(tx, [...wanted.values()]));
  let fresh = [...wanted].filter(([key]) => !known.has(key)).map(([, point]) => point);
  const creating: (ImpactPoint & { environment: string; app: string })[] = [];
  if (fresh.length > 0) {
    await impactStore.lockSeries(tx);
    remember(await impactStore.seriesOf(tx, fresh));
    fresh = fresh.filter((point) => !known.has(seriesKey(point.metric, point.labelKey)));
    const usage = await impactStore.environmentUsage(tx, [...new Set(fresh.map(environmentOf))]);
    const metricsIn = new Map<string, Set<string>>();
    const seriesIn = new Map<string, number>();
    const perApp = new Map<string, number>();
    const appKey = (environment: string, metric: string, app: string) => `${environment}\u0000${metric}\u0000${app}`;
    for (const row of usage) {
      metricsIn.set(row.environment, (metricsIn.get(row.environment) ?? new Set()).add(row.metric));
      seriesIn.set(row.environment, (seriesIn.get(row.environment) ?? 0) + row.count);
      perApp.set(appKey(row.environment, row.metric, row.app), row.count);
    }
    for (const point of fresh) {
      const environment = environmentOf(point);
      const app = appOf(point);
      const metrics = metricsIn.get(environment) ?? new Set<string>();
      if (Object.keys(point.labels).length > limits.labelsPerSeries) {
        drop('series_labels_over_limit', 1, environment);
        continue;
      }
      if (!metrics.has(point.metric) && metrics.size >= limits.metrics) {
        drop('too_many_metrics', 1, environment);
        continue;
      }
      if ((seriesIn.get(environment) ?? 0) >= limits.seriesPerEnvironment) {
        drop('too_many_series', 1, environment);
        continue;
      }
      const key = appKey(environment, point.metric, app);
      if ((perApp.get(key) ?? 0) >= limits.seriesPerMetric) {
        drop('too_many_series', 1, environment);
        continue;
      }
      metricsIn.set(environment, metrics.add(point.metric));
      seriesIn.set(environment, (seriesIn.get(environment) ?? 0) + 1);
      perApp.set(key, (perApp.get(key) ?? 0) + 1);
      creating.push({ ...point, environment, app });
    }
  }
  // The catalogue holds the metrics of the series kept and made (in name order, as concurrent runs lock alike).
  const kept = [...wanted.values()].filter((point) => known.has(seriesKey(point.metric, point.labelKey)));
  const metrics = new Map(
    [...kept, ...creating].map((point) => [point.metric, { name: point.metric, type: point.type, help: point.help }]),
  );
  await impactStore.keepMetrics(
    tx,
    [...metrics.values()].sort((a, b) => a.name.localeCompare(b.name)),
    seenAt,
  );
  remember(
    await impactStore.createSeries(
      tx,
      creating.map(({ metric, labelKey, labels, bounds, environment, app }) => ({
        metric,
        labelKey,
        labels,
        bounds,
        environment,
        app,
      })),
      seenAt,
    ),
  );
  return known;
}

/**
 * Records the impact metrics of a run of metrics messages, in the caller's transaction (the one that records the
 * messages' sequences, so a redelivered message adds nothing): per series, one row per minute and one per hour,
 * however many posts fed them, and the series' totals for the Prometheus exposition.
 */
export async function recordImpactMetrics(
  tx: Queryable,
  messages: readonly MetricsMessage[],
  limits: ImpactLimits,
  drop: DropCounter,
): Promise<void> {
  const points = mergeImpactPoints(
    messages.flatMap((message) => impactPointsOf(message, drop)),
    drop,
  );
  if (points.length === 0) return;
  const seenAt = messages
    .map((message) => message.receivedAt)
    .sort()
    .at(-1)!;
  const series = await seriesFor(tx, points, limits, seenAt, drop);
  const placed = points.flatMap((point) => {
    const ref = series.get(seriesKey(point.metric, point.labelKey));
    if (!ref) return [];
    if (!sameBounds(ref.bounds, point.bounds)) {
      drop('bucket_mismatch', 1, point.labels.environment);
      return [];
    }
    return [{ seriesId: ref.id, at: point.at, point }];
  });
  // Per period: the points of a period made one first (in time order, so a gauge keeps its latest value).
  const byTime = [...placed].sort((a, b) => a.at.localeCompare(b.at));
  const idOf = new Map(placed.map((row) => [seriesKey(row.point.metric, row.point.labelKey), row.seriesId]));
  for (const resolution of IMPACT_RESOLUTIONS) {
    const merged = mergeImpactPoints(
      byTime.map(({ point }) => ({ ...point, at: periodOf(point.at, resolution * 1000) })),
      drop,
    );
    await impactStore.addPoints(
      tx,
      resolution,
      merged.map((point) => ({ seriesId: idOf.get(seriesKey(point.metric, point.labelKey))!, at: point.at, point })),
    );
  }
  // Totals: every point of the run made one per series (a gauge's latest value).
  const totals = mergeImpactPoints(
    byTime.map(({ point }) => ({ ...point, at: '' })),
    drop,
  );
  await impactStore.addToTotals(
    tx,
    totals.map((point) => ({ seriesId: idOf.get(seriesKey(point.metric, point.labelKey))!, point })),
    seenAt,
  );
}
