import type { TrackedUnitsView } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { z } from 'zod';
import { trackedUnitStore } from './tracked-unit-store.ts';

type Query = z.infer<typeof TrackedUnitsView.request>;
type Answer = z.infer<typeof TrackedUnitsView.answer>;

const DAY = 86_400_000;
const MAX_STEPS = 15;
const dayOf = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

/** The days to read the comparison at: every day since the start, or 15 spread evenly, always ending today. */
export function stepDays(fromMs: number, now: number): string[] {
  const first = Math.floor(fromMs / DAY);
  const last = Math.max(first, Math.floor(now / DAY));
  const count = last - first + 1;
  if (count <= MAX_STEPS) return Array.from({ length: count }, (_, i) => dayOf((first + i) * DAY));
  const days = new Set<string>();
  for (let i = 0; i < MAX_STEPS; i += 1)
    days.add(dayOf((first + Math.round((i * (count - 1)) / (MAX_STEPS - 1))) * DAY));
  return [...days];
}

/** An experiment's per-user figures from tracked outcomes since the UTC day it began, per step day and answer. */
export async function trackedUnits(db: Queryable, query: Query, now = Date.now()): Promise<Answer> {
  const fromMs = Date.parse(query.since);
  const from = dayOf(fromMs);
  const days = stepDays(fromMs, now);
  // One after the other: the view reads both in one snapshot, and a transaction runs one query at a time.
  const rows = await trackedUnitStore.moments(db, {
    environment: query.environment,
    feature: query.featureName,
    metric: query.metricName,
    denominator: query.denominator,
    converted: query.aggregation === 'converted',
    from,
    preFrom: dayOf(fromMs - query.preDays * DAY),
    steps: days,
  });
  const excludedUnits = await trackedUnitStore.excluded(db, query.environment, query.featureName, from);
  // Object.fromEntries: an answer named __proto__ is an own key like any other.
  const steps = [...Map.groupBy(rows, (row) => row.at)].map(([at, ofDay]) => ({
    at: `${at}T23:59:59.999Z`,
    arms: Object.fromEntries(
      ofDay.map((row) => {
        const [y, d, x, dx, yy, yd, yx, ydx, dd, dX, ddx, xx, xdx, dxdx] = row.sums as number[];
        const moments = {
          n: row.n,
          sums: [y!, d!, x!, dx!],
          products: [
            [yy!, yd!, yx!, ydx!],
            [yd!, dd!, dX!, ddx!],
            [yx!, dX!, xx!, xdx!],
            [ydx!, ddx!, xdx!, dxdx!],
          ],
          withHistory: row.withHistory,
        };
        return [row.answer, moments];
      }),
    ),
  }));
  return { steps, excludedUnits, computedAt: new Date(now).toISOString() };
}
