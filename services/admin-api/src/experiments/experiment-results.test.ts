import { describe, expect, it } from 'vitest';
import { holm } from '@bunting/statistics';
import type { Experiment } from '@bunting/contracts';
import { experimentResults, type VariantsAnswer } from './experiment-results.ts';

const experiment: Experiment = {
  id: 'x',
  project: 'default',
  featureName: 'f',
  environment: 'development',
  name: 'Three buttons',
  hypothesis: null,
  controlVariant: 'a',
  metrics: [
    { metricName: 'sales', role: 'primary', better: 'increase' },
    { metricName: 'errors', role: 'guardrail', better: 'decrease' },
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
