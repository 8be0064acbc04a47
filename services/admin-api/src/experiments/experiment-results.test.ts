import { describe, expect, it } from 'vitest';
import { holm } from '@bunting/statistics';
import type { Experiment } from '@bunting/contracts';
import { experimentResults, type TrackedAnswer, type VariantsAnswer } from './experiment-results.ts';

const fromImpact = { source: 'impact', aggregation: 'sum', denominator: null, preDays: 7 } as const;
const experiment: Experiment = {
  id: 'x',
  project: 'default',
  featureName: 'f',
  environment: 'development',
  name: 'Three buttons',
  hypothesis: null,
  controlVariant: 'a',
  metrics: [
    { metricName: 'sales', role: 'primary', better: 'increase', ...fromImpact },
    { metricName: 'errors', role: 'guardrail', better: 'decrease', ...fromImpact },
  ],
  method: 'fixed-horizon',
  alpha: 0.05,
  correction: 'holm',
  minimumSample: 1000,
  status: 'running',
  startedAt: '2026-12-01T00:00:00.000Z',
  stoppedAt: null,
  decision: null,
};
const counter = (total: number) => ({ total, observations: null, squares: null });

/** Two hours of a counter: each variant's exposures and counts split evenly over them. */
function answer(exposures: Record<string, number>, counts: Record<string, number>): VariantsAnswer {
  const half = (values: Record<string, number>) =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value / 2]));
  const arms = (values: Record<string, number>) =>
    Object.fromEntries(Object.entries(half(values)).map(([key, value]) => [key, counter(value)]));
  return {
    type: 'counter',
    steps: ['2026-12-01T00:00:00.000Z', '2026-12-01T01:00:00.000Z'].map((at) => ({
      at,
      exposures: half(exposures),
      arms: arms(counts),
    })),
  };
}

describe("an experiment's results", () => {
  const exposures = { a: 2000, b: 2000, c: 2000 };
  const results = experimentResults(
    experiment,
    [answer(exposures, { a: 400, b: 520, c: 410 }), answer(exposures, { a: 100, b: 100, c: 160 })],
    { a: 1, b: 1, c: 1 },
    '2026-12-01T02:00:00.000Z',
  );

  it('compares every variant with the control on every metric, Holm-corrected as one family', () => {
    const all = results.metrics.flatMap((metric) => metric.comparisons);
    expect(all.map((comparison) => comparison.variant)).toEqual(['b', 'c', 'b', 'c']);
    expect(all.map((comparison) => comparison.adjustedPValue)).toEqual(holm(all.map((c) => c.pValue)));
    const [sales, errors] = results.metrics;
    expect(sales!.comparisons.map((c) => c.verdict)).toEqual(['better', 'inconclusive']);
    expect(errors!.comparisons.map((c) => c.verdict)).toEqual(['inconclusive', 'worse']);
    expect(sales!.overTime.map((point) => point.at)).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
      '2026-12-01T01:00:00.000Z',
      '2026-12-01T01:00:00.000Z',
    ]);
    expect(results.summary).toBe('b beats the control on the primary metric. Guardrail harmed: c on errors.');
  });

  it('tells the reader not to read the results when the split is broken', () => {
    const skewed = experimentResults(
      experiment,
      [answer({ a: 2000, b: 1700, c: 2000 }, { a: 400, b: 400, c: 400 }), answer({ a: 2000, b: 1700, c: 2000 }, {})],
      { a: 1, b: 1, c: 1 },
      '2026-12-01T02:00:00.000Z',
    );
    expect(skewed.sampleRatio?.mismatch).toBe(true);
    expect(skewed.summary).toMatch(/^Do not read these results/);
  });
});

/** Users' values per variant as the tracked view gives them: y since the start, x in the week before. */
function moments(users: readonly { y: number; x: number }[]): TrackedAnswer['steps'][number]['arms'][string] {
  const sum = (f: (u: { y: number; x: number }) => number) => users.reduce((t, u) => t + f(u), 0);
  const v = (u: { y: number; x: number }) => [u.y, 0, u.x, 0];
  return {
    n: users.length,
    sums: [0, 1, 2, 3].map((i) => sum((u) => v(u)[i]!)),
    products: [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => sum((u) => v(u)[i]! * v(u)[j]!))),
    withHistory: users.filter((u) => u.x !== 0).length,
  };
}

describe('results from tracked outcomes, per user', () => {
  // Each user spends about what they spent the week before; b adds 1 to everyone. Deterministic, no randomness.
  const users = (count: number, lift: number) =>
    Array.from({ length: count }, (_, i) => {
      const x = 5 + ((i * 37) % 11);
      return { x, y: x + lift + (((i * 17) % 5) - 2) / 2 };
    });
  const tracked: Experiment = {
    ...experiment,
    method: 'sequential',
    metrics: [
      { metricName: 'revenue', role: 'primary', better: 'increase', ...fromImpact, source: 'tracked', preDays: 7 },
    ],
    minimumSample: 100,
  };
  const answer: TrackedAnswer = {
    excludedUnits: 3,
    computedAt: '2026-12-02T00:00:00.000Z',
    steps: [{ at: '2026-12-01T23:59:59.999Z', arms: { a: moments(users(400, 0)), b: moments(users(400, 1)) } }],
  };
  const exposuresOnly: VariantsAnswer = { type: null, steps: [] };
  const results = experimentResults(tracked, [answer], { a: 1, b: 1 }, '2026-12-02T00:00:00.000Z', exposuresOnly);
  const [revenue] = results.metrics;

  it('adjusts for the week before and says by how much it narrowed the comparison', () => {
    expect(revenue!.adjustment!.varianceReduction).toBeGreaterThan(0.8);
    expect(revenue!.adjustment!.unitsWithHistory).toBe(800);
    expect(revenue!.adjustment!.excludedUnits).toBe(3);
    expect(revenue!.comparisons[0]!.verdict).toBe('better');
    const [a, b] = revenue!.arms;
    expect(a!.units).toBe(400);
    expect(b!.mean - a!.mean).toBeCloseTo(1, 1);
    expect(b!.adjustedMean! - a!.adjustedMean!).toBeCloseTo(1, 1);
  });

  it('counts users for the split check and the minimum sample', () => {
    expect(results.sampleRatio?.exposures).toEqual({ a: 400, b: 400 });
    expect(results.minimumSampleReached).toBe(true);
    const lopsided: TrackedAnswer = {
      excludedUnits: 0,
      computedAt: '2026-12-02T00:00:00.000Z',
      steps: [{ at: '2026-12-01T23:59:59.999Z', arms: { a: moments(users(400, 0)), b: moments(users(300, 1)) } }],
    };
    const skewed = experimentResults(tracked, [lopsided], { a: 1, b: 1 }, '2026-12-02T00:00:00.000Z', exposuresOnly);
    expect(skewed.sampleRatio?.mismatch).toBe(true);
  });

  it('reads the plain comparison while no user has a period before', () => {
    const fresh = (count: number, lift: number) => users(count, lift).map((u) => ({ ...u, x: 0 }));
    const plain: TrackedAnswer = {
      excludedUnits: 0,
      computedAt: '2026-12-02T00:00:00.000Z',
      steps: [{ at: '2026-12-01T23:59:59.999Z', arms: { a: moments(fresh(400, 0)), b: moments(fresh(400, 1)) } }],
    };
    const [metric] = experimentResults(
      tracked,
      [plain],
      { a: 1, b: 1 },
      '2026-12-02T00:00:00.000Z',
      exposuresOnly,
    ).metrics;
    expect(metric!.adjustment).toEqual({ varianceReduction: 0, unitsWithHistory: 0, excludedUnits: 0 });
    expect(metric!.arms.every((arm) => arm.adjustedMean === null)).toBe(true);
    expect(metric!.comparisons[0]!.pValue).toBeGreaterThan(revenue!.comparisons[0]!.pValue);
  });
});
