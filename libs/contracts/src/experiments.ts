import { z } from 'zod';

// Experiments on a flag's variants (Bunting's addition): the variants' weights are the split, SDK metrics count each
// variant's exposures and impact metrics labelled with the flag carry each variant's outcomes.

const ExperimentMetricFields = z
  .object({
    metricName: z.string().min(1).max(300),
    /** The primary metric decides; secondary ones inform; guardrails must not get worse. */
    role: z.enum(['primary', 'secondary', 'guardrail']),
    /** Which way is better for the metric: conversions up, errors and latency down. */
    better: z.enum(['increase', 'decrease']),
    /**
     * Where the outcomes come from: `impact`, an impact metric labelled with the flag (a unit is an evaluation, or a
     * histogram's observation); `tracked`, outcomes tracked through OpenFeature (POST /api/frontend/track), where a
     * unit is a user, adjusted for the same users' values before the experiment began (CUPED).
     */
    source: z.enum(['impact', 'tracked']).default('impact'),
    /** Tracked only: each user's total (`sum`, revenue per user) or whether the user did it at all (`converted`). */
    aggregation: z.enum(['sum', 'converted']).default('sum'),
    /** Tracked only: a ratio of two sums over the same users, this tracked metric below the line (revenue per order). */
    denominator: z.string().min(1).max(200).nullable().default(null),
    /** Tracked only: days before the start whose values adjust the comparison (CUPED); 0 turns it off. */
    preDays: z.number().int().min(0).max(30).default(7),
  })
  .strict();
export const ExperimentMetric = ExperimentMetricFields.refine(
  (metric) => metric.source === 'tracked' || (metric.denominator === null && metric.aggregation === 'sum'),
  {
    message: 'aggregation and denominator apply to tracked metrics only',
    path: ['source'],
  },
).refine((metric) => metric.denominator === null || metric.aggregation === 'sum', {
  message: 'a ratio divides two sums: use aggregation sum with a denominator',
  path: ['denominator'],
});
export type ExperimentMetric = z.infer<typeof ExperimentMetric>;

/** POST .../features/{featureName}/experiments */
export const CreateExperiment = z
  .object({
    name: z.string().trim().min(1).max(100),
    environment: z.string().min(1).max(100),
    hypothesis: z.string().max(1000).optional(),
    /** The variant the others are compared with. */
    controlVariant: z.string().min(1).max(100),
    metrics: z
      .array(ExperimentMetric)
      .min(1)
      .max(10)
      .refine((metrics) => metrics.filter((metric) => metric.role === 'primary').length === 1, {
        message: 'An experiment has exactly one primary metric',
      })
      .refine((metrics) => new Set(metrics.map((metric) => metric.metricName)).size === metrics.length, {
        message: 'Each metric is named once',
      }),
    /** Sequential results may be read at any time; fixed-horizon ones only once, at the planned sample. */
    method: z.enum(['sequential', 'fixed-horizon']).default('sequential'),
    alpha: z.number().min(0.001).max(0.2).default(0.05),
    correction: z.enum(['holm', 'benjamini-hochberg']).default('holm'),
    /** Units each variant needs before the results are read as a decision. */
    minimumSample: z.number().int().min(30).max(100_000_000).default(1000),
  })
  .strict();
export type CreateExperiment = z.infer<typeof CreateExperiment>;

/** POST .../experiments/{experimentId}/stop: the decision, recorded with the flag's lifecycle (completed). */
export const StopExperiment = z
  .object({
    outcome: z.enum(['kept', 'discarded']),
    /** The variant kept, when one is. */
    keptVariant: z.string().min(1).max(100).nullable().default(null),
    reason: z.string().max(1000).optional(),
  })
  .strict();
export type StopExperiment = z.infer<typeof StopExperiment>;

export const Experiment = z.object({
  id: z.string(),
  project: z.string(),
  featureName: z.string(),
  environment: z.string(),
  name: z.string(),
  hypothesis: z.string().nullable(),
  controlVariant: z.string(),
  metrics: z.array(ExperimentMetric),
  method: z.enum(['sequential', 'fixed-horizon']),
  alpha: z.number(),
  correction: z.enum(['holm', 'benjamini-hochberg']),
  minimumSample: z.number(),
  status: z.enum(['running', 'stopped']),
  startedAt: z.string(),
  stoppedAt: z.string().nullable(),
  decision: z
    .object({
      outcome: z.enum(['kept', 'discarded']),
      keptVariant: z.string().nullable(),
      reason: z.string().nullable(),
    })
    .nullable(),
});
export type Experiment = z.infer<typeof Experiment>;
export const ExperimentList = z.object({ experiments: z.array(Experiment) });

const Bound = z.number().nullable();

/** One variant against the control on one metric. */
export const VariantComparison = z.object({
  variant: z.string(),
  /** Relative lift over the control's mean (0.1 is 10 % higher); absolute while the control is at zero. */
  differenceType: z.enum(['relative', 'absolute']),
  effect: z.number(),
  interval: z.object({ lower: Bound, upper: Bound }),
  pValue: z.number(),
  /** After the correction across the experiment's metrics and variants. */
  adjustedPValue: z.number(),
  /** Better or worse with the evidence the settings ask for; null while it could be either. */
  verdict: z.enum(['better', 'worse', 'inconclusive']),
  /** Bayesian reading: the chance the variant beats the control, and the expected loss of each choice. */
  chanceToWin: z.number(),
  risk: z.object({ control: z.number(), variant: z.number() }),
  /** What it means, in words. */
  summary: z.string(),
});

export const ExperimentMetricResult = ExperimentMetricFields.extend({
  type: z.enum(['counter', 'gauge', 'histogram']).nullable(),
  /** Mean: each unit's average (a ratio's sums divided); adjustedMean: after CUPED, what the comparison uses. */
  arms: z.array(
    z.object({
      variant: z.string(),
      exposures: z.number(),
      units: z.number(),
      mean: z.number(),
      adjustedMean: z.number().nullable(),
    }),
  ),
  /**
   * Tracked metrics: how much CUPED narrowed the interval (0.3: the variance is 30 % lower than without the period
   * before), the users with values in that period, and users left out for having seen more than one variant.
   */
  adjustment: z
    .object({ varianceReduction: z.number(), unitsWithHistory: z.number(), excludedUnits: z.number() })
    .nullable(),
  comparisons: z.array(VariantComparison),
  /** The effect and its interval at the end of each hour, for the chart of how the evidence grew. */
  overTime: z.array(z.object({ at: z.string(), variant: z.string(), effect: z.number(), lower: Bound, upper: Bound })),
  note: z.string().nullable(),
});

/** GET .../experiments/{experimentId}/results */
export const ExperimentResults = z.object({
  experiment: Experiment,
  asOf: z.string(),
  /** The split check: exposures per variant against the variants' weights (p < 0.001 is a broken split). */
  sampleRatio: z
    .object({
      pValue: z.number(),
      mismatch: z.boolean(),
      exposures: z.record(z.string(), z.number()),
      expectedShares: z.record(z.string(), z.number()),
    })
    .nullable(),
  minimumSampleReached: z.boolean(),
  metrics: z.array(ExperimentMetricResult),
  /** The experiment's state in a sentence: what a reader can conclude now. */
  summary: z.string(),
});
export type ExperimentResults = z.infer<typeof ExperimentResults>;
