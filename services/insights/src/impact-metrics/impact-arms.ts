import { sanitiseImpactName, type ImpactArmsView, type ImpactLabelSelectors } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { z } from 'zod';
import { metricReadModel } from '../sdk-metrics/metric-read-model.ts';
import { matchesSelectors, metricNamed } from './impact-query.ts';
import { impactStore, type ImpactResolution } from './impact-store.ts';

type Totals = z.infer<typeof ImpactArmsView.answer>['on'];
type Answer = z.infer<typeof ImpactArmsView.answer>;

const HOUR = 3_600_000;
/** One bucket holding every row since the start (a step longer than any range). */
const WHOLE = 10 ** 13;
const EMPTY: Totals = { total: 0, observations: null, squares: null };

/**
 * The finest resolution still kept from `since` on. Each coarser one sums whole finer ones from the hour, so totals
 * from the hour are the same at every resolution and a baseline taken at one holds at the next.
 */
export function resolutionFrom(since: number, now: number): ImpactResolution {
  if (since > now - 47 * HOUR) return 60;
  if (since > now - 7.5 * 24 * HOUR) return 900;
  return 3600;
}

/**
 * Σx² of a histogram's observations estimated from its cumulative bucket counts: each observation taken at its
 * bucket's midpoint (the first bucket's from zero, the open last one's at its lower bound).
 */
export function squaresFromBuckets(bounds: readonly number[], cumulative: readonly number[]): number {
  let squares = 0;
  let below = 0;
  let lower = 0;
  bounds.forEach((upper, index) => {
    const count = (cumulative[index] ?? below) - below;
    const middle = Number.isFinite(upper) ? (lower + upper) / 2 : lower;
    squares += count * middle * middle;
    below = cumulative[index] ?? below;
    if (Number.isFinite(upper)) lower = upper;
  });
  return squares;
}

async function totalsOf(
  db: Queryable,
  type: 'counter' | 'histogram',
  series: readonly { id: number; bounds: number[] | null }[],
  since: string,
  resolution: ImpactResolution,
): Promise<Totals> {
  if (series.length === 0) return type === 'counter' ? EMPTY : { total: 0, observations: 0, squares: 0 };
  const ids = series.map((one) => one.id);
  if (type === 'counter') {
    const [row] = await impactStore.counterSteps(db, resolution, ids, since, WHOLE);
    return { total: row?.value ?? 0, observations: null, squares: null };
  }
  // Series with other bounds cannot be added bucket by bucket: each is read on its own.
  let totals: Totals = { total: 0, observations: 0, squares: 0 };
  const byBounds = Map.groupBy(series, (one) => JSON.stringify(one.bounds ?? []));
  for (const [bounds, alike] of byBounds) {
    const [row] = await impactStore.histogramSteps(
      db,
      resolution,
      alike.map((one) => one.id),
      since,
      WHOLE,
    );
    if (!row) continue;
    totals = {
      total: totals.total + row.sum,
      observations: totals.observations! + row.count,
      squares: totals.squares! + squaresFromBuckets(JSON.parse(bounds) as number[], row.buckets),
    };
  }
  return totals;
}

/**
 * A metric's series labelled with the flag in the environment, summed since the hour of `since` for those where the
 * flag was on (any label value but `disabled`) and off, with the flag's exposures there since that day. A gauge has
 * no sides to add up: it is answered with its type and nothing else, and the asker says so.
 */
export async function impactArms(
  db: Queryable,
  query: {
    metricName: string;
    featureName: string;
    environment: string;
    labelSelectors: ImpactLabelSelectors;
    since: string;
  },
  now = Date.now(),
): Promise<Answer> {
  const sinceMs = Date.parse(query.since);
  const fromHour = new Date(Math.floor(sinceMs / HOUR) * HOUR).toISOString();
  const exposures = await metricReadModel.exposuresSince(db, query.featureName, query.environment, query.since);
  const metric = await metricNamed(db, query.metricName);
  if (!metric) return { type: null, series: 0, on: EMPTY, off: EMPTY, exposures };
  if (metric.type === 'gauge') return { type: 'gauge', series: 0, on: EMPTY, off: EMPTY, exposures };
  // SDKs label a count with the flag's name, which the metrics' intake made a valid label name.
  const label = sanitiseImpactName(query.featureName);
  const labelled = (await impactStore.seriesOfMetric(db, metric.name)).filter(
    (series) =>
      Object.hasOwn(series.labels, label) &&
      series.labels.environment === query.environment &&
      matchesSelectors(series.labels, query.labelSelectors),
  );
  const resolution = resolutionFrom(sinceMs, now);
  const off = labelled.filter((series) => series.labels[label] === 'disabled');
  const on = labelled.filter((series) => series.labels[label] !== 'disabled');
  return {
    type: metric.type,
    series: labelled.length,
    on: await totalsOf(db, metric.type, on, fromHour, resolution),
    off: await totalsOf(db, metric.type, off, fromHour, resolution),
    exposures,
  };
}
