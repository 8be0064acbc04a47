import { sanitiseImpactName, type ImpactArmsView, type ImpactVariantsView } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { z } from 'zod';
import { metricReadModel } from '../sdk-metrics/metric-read-model.ts';
import { resolutionFrom, squaresFromBuckets } from './impact-arms.ts';
import { metricNamed } from './impact-query.ts';
import { impactStore } from './impact-store.ts';

type Totals = z.infer<typeof ImpactArmsView.answer>['on'];
type Answer = z.infer<typeof ImpactVariantsView.answer>;
type Step = Answer['steps'][number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const hourOf = (ms: number) => new Date(ms).toISOString();

/**
 * An experiment's figures per step since the UTC day it started: the flag's exposures per variant, and the metric's
 * series that carry the flag's label summed per label value (a variant's name, or enabled/disabled without variants).
 * Counting from the day keeps exposures and outcomes alike once the SDK metrics' hours are rolled up into days.
 */
export async function impactVariants(
  db: Queryable,
  query: { metricName: string; featureName: string; environment: string; since: string },
  now = Date.now(),
): Promise<Answer> {
  const sinceMs = Date.parse(query.since);
  const fromDay = new Date(Math.floor(sinceMs / DAY) * DAY).toISOString();
  // Hours while the SDK metrics' hours are all still kept; days after, when the oldest are rolled up into days.
  const stepMs = sinceMs > now - 47 * HOUR ? HOUR : DAY;
  const steps = new Map<string, Step>();
  const step = (ms: number) => {
    const at = hourOf(Math.floor(ms / stepMs) * stepMs);
    const held = steps.get(at) ?? { at, exposures: {}, arms: {} };
    steps.set(at, held);
    return held;
  };
  for (const row of await metricReadModel.variantExposures(db, query.featureName, query.environment, query.since)) {
    const exposures = step(Date.parse(row.at)).exposures;
    exposures[row.variant] = (exposures[row.variant] ?? 0) + row.count;
  }
  const metric = await metricNamed(db, query.metricName);
  const type = metric?.type ?? null;
  if (metric && metric.type !== 'gauge') {
    const label = sanitiseImpactName(query.featureName);
    const labelled = (await impactStore.seriesOfMetric(db, metric.name)).filter(
      (series) => Object.hasOwn(series.labels, label) && series.labels.environment === query.environment,
    );
    const resolution = resolutionFrom(Date.parse(fromDay), now);
    for (const [value, series] of Map.groupBy(labelled, (one) => one.labels[label]!)) {
      const ids = series.map((one) => one.id);
      const add = (at: number, totals: Totals) => {
        const arms = step(at).arms;
        const held = arms[value] ?? { total: 0, observations: null, squares: null };
        arms[value] = {
          total: held.total + totals.total,
          observations: totals.observations === null ? null : (held.observations ?? 0) + totals.observations,
          squares: totals.squares === null ? null : (held.squares ?? 0) + totals.squares,
        };
      };
      if (metric.type === 'counter') {
        for (const row of await impactStore.counterSteps(db, resolution, ids, fromDay, stepMs)) {
          add(row.step, { total: row.value, observations: null, squares: null });
        }
        continue;
      }
      for (const [bounds, alike] of Map.groupBy(series, (one) => JSON.stringify(one.bounds ?? []))) {
        const steps = await impactStore.histogramSteps(
          db,
          resolution,
          alike.map((one) => one.id),
          fromDay,
          stepMs,
        );
        for (const row of steps) {
          const squares = squaresFromBuckets(JSON.parse(bounds) as number[], row.buckets);
          add(row.step, { total: row.sum, observations: row.count, squares });
        }
      }
    }
  }
  return { type, steps: [...steps.values()].sort((a, b) => a.at.localeCompare(b.at)) };
}
