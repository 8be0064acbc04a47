// Bunting's statistics against GrowthBook's engine (gbstats 0.8.0): the figures it gave for the same aggregates.
// The open cases are kept in this repository; the cases held back for review are read from the product's shared
// reference when that file is on the machine (or from BUNTING_STATISTICS_CASES), and checked the same way.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Arm } from './arms.ts';
import { bayesianTest } from './bayesian.ts';
import { estimateEffect, type DifferenceType } from './effect.ts';
import { sequentialHarmTest, sequentialTwoSidedTest, twoSidedTest, welchDegreesOfFreedom } from './frequentist.ts';
import { adjustedInterval, adjustPValues } from './multiple-comparisons.ts';
import { checkSampleRatio } from './srm.ts';

type Numbers = Record<string, number>;
interface ReferenceCase {
  id: string;
  kind: string;
  metric_type?: string;
  settings: Record<string, unknown> & { difference_type?: DifferenceType; alpha?: number };
  arms?: (Numbers & { name: string })[];
  inputs?: { p_values: number[]; lifts?: number[]; unadjusted_cis?: [number, number][] };
  results: Record<string, unknown>[];
}

function load(path: string): ReferenceCase[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { cases: ReferenceCase[] }).cases;
}

const open = load(new URL('../reference/gbstats-cases-open.json', import.meta.url).pathname);
const heldBackPath =
  process.env['BUNTING_STATISTICS_CASES'] ??
  new URL('../../../../shared/reference/statistics/cases-held-back.json', import.meta.url).pathname;
const heldBack = existsSync(heldBackPath) ? load(heldBackPath) : [];

const PARTS = ['numerator', 'denominator', 'pre_numerator', 'pre_denominator'] as const;

function armOf(metricType: string, a: Numbers): Arm {
  switch (metricType) {
    case 'proportion':
      return { type: 'proportion', n: a['n']!, sum: a['sum']! };
    case 'mean':
      return { type: 'mean', n: a['n']!, sum: a['sum']!, sumSquares: a['sum_squares']! };
    case 'ratio':
      return {
        type: 'ratio',
        n: a['n']!,
        numeratorSum: a['numerator_sum']!,
        numeratorSumSquares: a['numerator_sum_squares']!,
        denominatorSum: a['denominator_sum']!,
        denominatorSumSquares: a['denominator_sum_squares']!,
        numeratorDenominatorSumProducts: a['numerator_denominator_sum_products']!,
      };
    case 'cuped_mean':
    case 'cuped_proportion':
      return {
        type: metricType === 'cuped_mean' ? 'adjusted-mean' : 'adjusted-proportion',
        n: a['n']!,
        sum: a['sum']!,
        sumSquares: a['sum_squares']!,
        preSum: a['pre_sum']!,
        preSumSquares: a['pre_sum_squares']!,
        postPreSumProducts: a['post_pre_sum_products']!,
      };
    case 'cuped_ratio': {
      const product = (i: number, j: number) => {
        if (i === j) return a[`${PARTS[i]}_sum_squares`]!;
        const [x, y] = i < j ? [PARTS[i], PARTS[j]] : [PARTS[j], PARTS[i]];
        return a[`${x}_${y}_sum_products`]!;
      };
      const row = (i: number) => [product(i, 0), product(i, 1), product(i, 2), product(i, 3)] as const;
      return {
        type: 'adjusted-ratio',
        n: a['n']!,
        sums: [a['numerator_sum']!, a['denominator_sum']!, a['pre_numerator_sum']!, a['pre_denominator_sum']!],
        products: [row(0), row(1), row(2), row(3)],
      };
    }
    default:
      throw new Error(`unknown metric type ${metricType}`);
  }
}

/** Relative tolerance, or absolute below `floor` (values that are noise on either side). */
function close(actual: number | null, expected: unknown, relative: number, floor = 0): void {
  if (expected === null || expected === undefined) {
    expect(actual).toBeNull();
    return;
  }
  const want = expected as number;
  expect(actual).not.toBeNull();
  const error = Math.abs((actual as number) - want);
  if (Math.abs(want) <= floor) expect(error).toBeLessThanOrEqual(floor);
  else expect(error / Math.max(Math.abs(want), Number.MIN_VALUE)).toBeLessThanOrEqual(relative);
}

function checkCase(c: ReferenceCase): void {
  if (c.kind === 'srm') {
    const check = checkSampleRatio(
      c.arms!.map((a) => a['n']!),
      c.arms!.map((a) => a['configured_weight']!),
    );
    const want = c.results[0]!;
    close(check.chiSquared, want['chi_squared_statistic'], 1e-9, 1e-12);
    close(check.pValue, want['srm_p_value'], (want['srm_p_value'] as number) < 1e-20 ? 1e-6 : 1e-9);
    expect(check.mismatch).toBe(want['srm_detected']);
    return;
  }
  if (c.kind === 'multiple_comparisons') {
    const method = c.settings['method'] as 'holm' | 'benjamini-hochberg';
    const adjusted = adjustPValues(c.inputs!.p_values, method);
    const want = c.results[0]!;
    (want['adjusted_p_values'] as number[]).forEach((p, i) => close(adjusted[i]!, p, 1e-9));
    const cis = want['adjusted_cis'] as ([number | null, number | null] | null)[] | undefined;
    cis?.forEach((ci, i) => {
      const [lower, upper] = c.inputs!.unadjusted_cis![i]!;
      const interval = adjustedInterval(c.inputs!.lifts![i]!, { lower, upper }, adjusted[i]!);
      close(interval.lower, ci?.[0] ?? null, 1e-9);
      close(interval.upper, ci?.[1] ?? null, 1e-9);
    });
    return;
  }
  const arms = c.arms!.map((a) => armOf(c.metric_type!, a));
  const differenceType = c.settings.difference_type!;
  const alpha = c.settings.alpha ?? 0.05;
  c.results.forEach((want, i) => {
    const effect = estimateEffect(arms[0]!, arms[i + 1]!, differenceType);
    expect(effect.error ?? null).toBe(want['error_message'] ?? null);
    const intermediates = want['intermediates'] as Record<string, Numbers | number> | undefined;
    const control = intermediates?.['control'] as Numbers | undefined;
    if (control?.['theta'] !== undefined) close(effect.theta ?? 0, control['theta'], 1e-9);
    if (control && !effect.error) {
      close(effect.control.mean, control['mean_used'], 1e-9, 1e-15);
      close(effect.control.variance, control['per_unit_variance_used'], 1e-9);
    }
    if (c.settings['engine'] === 'bayesian') {
      const prior = c.settings['prior'] as { proper: boolean; mean: number; variance: number };
      const result = bayesianTest(effect, {
        differenceType,
        prior,
        inverse: c.settings['inverse'] === true,
        alpha,
      });
      close(result.estimate, want['point_estimate'], 1e-9, 1e-15);
      close(result.standardError, want['standard_error'], 1e-9);
      close(result.interval.lower, want['ci_lower'], 1e-9, 1e-15);
      close(result.interval.upper, want['ci_upper'], 1e-9, 1e-15);
      close(result.chanceToWin, want['chance_to_win'], 1e-9);
      close(result.risk.control, want['risk_control'], 1e-7, 1e-12);
      close(result.risk.treatment, want['risk_treatment'], 1e-7, 1e-12);
      return;
    }
    const sides = String(c.settings['sides']);
    if (sides.startsWith('one-sided')) {
      const harm = c.settings['metric_inverse'] === true ? 'increase' : 'decrease';
      const result = sequentialHarmTest(effect, harm, alpha, c.settings['sequential_tuning_parameter'] as number);
      close(result.estimate, want['point_estimate'], 1e-9, 1e-15);
      close(result.standardError, want['standard_error'], 1e-9);
      close(result.interval.lower, want['ci_lower'], 1e-9);
      close(result.interval.upper, want['ci_upper'], 1e-9);
      close(result.pValue, want['p_value'], 1e-2);
      const exact = (intermediates as Numbers | undefined)?.['closed_form_p_value_not_from_gbstats'];
      if (exact !== undefined) close(result.pValue, exact, 1e-9);
      return;
    }
    const sequential = c.settings['sequential'] === true;
    const result = sequential
      ? sequentialTwoSidedTest(effect, alpha, c.settings['sequential_tuning_parameter'] as number)
      : twoSidedTest(effect, alpha);
    const tolerance = sequential ? 1e-9 : 1e-7;
    close(result.estimate, want['point_estimate'], 1e-9, 1e-15);
    close(result.standardError, want['standard_error'], 1e-9, 1e-15);
    close(result.interval.lower, want['ci_lower'], tolerance, 1e-15);
    close(result.interval.upper, want['ci_upper'], tolerance, 1e-15);
    close(result.pValue, want['p_value'], tolerance, (want['p_value'] as number) < 1e-6 ? 1e-12 : 0);
    const dof = (intermediates as Numbers | undefined)?.['welch_satterthwaite_dof'];
    if (dof !== undefined && !effect.error) close(welchDegreesOfFreedom(effect), dof, 1e-9);
  });
}

describe('statistics against GrowthBook reference figures', () => {
  it('has the open cases of every kind', () => {
    const kinds = new Set(open.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(
      [
        'bayesian',
        'cuped_frequentist',
        'cuped_sequential',
        'edge_case',
        'frequentist_two_sided',
        'multiple_comparisons',
        'sequential_one_sided_guardrail',
        'sequential_two_sided',
        'srm',
      ].sort(),
    );
  });
  it.each(open.map((c) => [c.id, c] as const))('open case %s', (_id, c) => checkCase(c));
  it.runIf(heldBack.length > 0).each(heldBack.map((c) => [c.id, c] as const))('held-back case %s', (_id, c) =>
    checkCase(c),
  );
});
