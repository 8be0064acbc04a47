import { z } from 'zod';
import { Constraint } from './constraints.ts';
import { ImpactAggregation, ImpactLabelSelectors, ImpactRange, ImpactSource } from './impact-metrics.ts';
import { CreateFeatureStrategy, FeatureStrategy } from './strategies.ts';
import { StrategyVariant } from './variants.ts';

/**
 * Release management as Unleash 8 names it: templates of ordered milestones, each a complete set of strategies;
 * release plans (a template applied to one flag environment) whose milestones start by hand or, after an interval,
 * on their own (progressions); and safeguards that watch an impact metric and pause a plan or turn a flag off.
 */

/** Ids Bunting gives templates, milestones, their strategies and safeguards: ULIDs, as Unleash does. */
export const ReleaseId = z.string().min(1).max(100);

/** When a milestone moves on to the next: this many minutes after it started. */
export const TransitionCondition = z.object({ intervalMinutes: z.number().int().min(1).max(525_600) });
export type TransitionCondition = z.infer<typeof TransitionCondition>;
/**
 * A plan's progression may also wait for evidence (Bunting's addition): it moves on only when every guardrail of the
 * plan has called the milestone safe (its minimum sample reached, no harm), and never before the interval.
 */
export const PlanTransitionCondition = TransitionCondition.extend({ waitForGuardrails: z.boolean().optional() });

/** A milestone's strategy as given: the fields of a flag's strategy (strategyName is Unleash's older copy of name). */
export const MilestoneStrategyInput = CreateFeatureStrategy.partial({ name: true })
  .extend({
    id: ReleaseId.optional(),
    strategyName: z.string().min(1).max(255).optional(),
  })
  .refine((strategy) => strategy.name !== undefined || strategy.strategyName !== undefined, {
    message: 'a strategy needs a name',
    path: ['name'],
  });
export type MilestoneStrategyInput = z.infer<typeof MilestoneStrategyInput>;

export const MilestoneInput = z.object({
  id: ReleaseId.optional(),
  name: z.string().min(1).max(255),
  sortOrder: z.number().int().min(0).max(10_000).optional(),
  transitionCondition: PlanTransitionCondition.nullable().optional(),
  strategies: z.array(MilestoneStrategyInput).max(30).optional(),
});
export type MilestoneInput = z.infer<typeof MilestoneInput>;

/** POST /api/admin/release-plan-templates and a project's /release-templates; PUT replaces the milestones. */
export const ReleaseTemplateInput = z.object({
  name: z.string().min(1).max(255),
  description: z.string().max(1000).nullable().optional(),
  milestones: z.array(MilestoneInput).max(30).optional(),
  /**
   * Bunting's addition: safeguards every plan made from the template starts with (thresholds or guardrail
   * comparisons). Left out, a PUT keeps the template's own (Unleash's UI does not know them).
   */
  get safeguards() {
    return z.array(TemplateSafeguard).max(10).optional();
  },
});
export type ReleaseTemplateInput = z.infer<typeof ReleaseTemplateInput>;

/** A milestone's strategy as answered. */
export const MilestoneStrategy = FeatureStrategy.omit({ featureName: true, milestoneId: true }).extend({
  milestoneId: z.string(),
  strategyName: z.string(),
});
export type MilestoneStrategy = z.infer<typeof MilestoneStrategy>;

export const Milestone = z.object({
  id: z.string(),
  name: z.string(),
  sortOrder: z.number(),
  /** The template or plan the milestone belongs to. */
  releasePlanDefinitionId: z.string(),
  startedAt: z.string().nullable(),
  transitionCondition: PlanTransitionCondition.nullable(),
  progressionExecutedAt: z.string().nullable(),
  pausedAt: z.string().nullable(),
  strategies: z.array(MilestoneStrategy),
});
export type Milestone = z.infer<typeof Milestone>;

export const ReleaseTemplate = z.object({
  id: z.string(),
  discriminator: z.literal('template'),
  name: z.string(),
  description: z.string().nullable(),
  /** The project a template belongs to; null for a global one. */
  project: z.string().nullable(),
  createdByUserId: z.number(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
  milestones: z.array(Milestone),
  /** What every plan made from the template starts watching (Bunting's addition). */
  get safeguards() {
    return z.array(TemplateSafeguard);
  },
});
export type ReleaseTemplate = z.infer<typeof ReleaseTemplate>;

/** A safeguard's impact metric: a query of the metric, as charts and the query API take it. */
export const SafeguardMetricInput = z.object({
  metricName: z.string().min(1).max(300),
  timeRange: ImpactRange,
  aggregationMode: ImpactAggregation,
  labelSelectors: ImpactLabelSelectors,
  source: ImpactSource.optional(),
});
export const SafeguardTrigger = z.object({ operator: z.enum(['>', '<']), threshold: z.number().finite() });
export type SafeguardTrigger = z.infer<typeof SafeguardTrigger>;

/**
 * A guardrail: instead of reading the metric against a threshold, compare the users who get the change (the flag on,
 * or any variant) with those who do not, from the metric's series labelled with the flag, and act on significant
 * harm. Bunting's addition; Unleash's shape stays as it is without it.
 */
export const SafeguardComparison = z
  .object({
    /** Which way is harm for the metric: errors and latency rise, conversions drop. */
    harm: z.enum(['increase', 'decrease']),
    /** The chance of a false alarm over the whole watch, however often it looks. */
    alpha: z.number().min(0.001).max(0.2).default(0.05),
    /** Units each side needs before the comparison may call the change safe (harm may be called before). */
    minimumSample: z.number().int().min(30).max(100_000_000).default(1000),
  })
  .strict();
export type SafeguardComparison = z.infer<typeof SafeguardComparison>;

const needsCondition = {
  message:
    'A safeguard needs a triggerCondition, or a comparison of the users who get the change with those who do not',
  path: ['triggerCondition'],
};

/** A template's safeguard: what each plan made from it gets. */
export const TemplateSafeguard = z
  .object({
    impactMetric: SafeguardMetricInput,
    triggerCondition: SafeguardTrigger.optional(),
    comparison: SafeguardComparison.optional(),
  })
  .strict()
  .refine((input) => input.triggerCondition !== undefined || input.comparison !== undefined, needsCondition);
export type TemplateSafeguard = z.infer<typeof TemplateSafeguard>;

/** PUT .../release-plans/{planId}/safeguards and .../environments/{environment}/safeguards */
export const SafeguardInput = z
  .object({
    /** A safeguard's id, to change that one; without it the plan's (or flag environment's) first is changed, or one made. */
    id: ReleaseId.optional(),
    impactMetric: SafeguardMetricInput,
    /** Required for a threshold; a comparison may leave it out (its condition is then the lift beyond zero). */
    triggerCondition: SafeguardTrigger.optional(),
    comparison: SafeguardComparison.optional(),
  })
  .refine((input) => input.triggerCondition !== undefined || input.comparison !== undefined, needsCondition);
export type SafeguardInput = z.infer<typeof SafeguardInput>;

/** One side of a guardrail's comparison since it began: exposures from SDK metrics, units and mean of the metric. */
export const ComparisonSide = z.object({
  exposures: z.number(),
  units: z.number(),
  /** Events per exposure (a counter) or the mean observed value (a histogram). */
  mean: z.number(),
});

/** What a guardrail saw at its last look, and what it concluded. */
export const ComparisonReading = z.object({
  decision: z.enum(['waiting', 'no-harm-yet', 'safe', 'harm', 'sample-ratio-mismatch', 'unsupported']),
  /** Why, in words a release manager reads. */
  summary: z.string(),
  since: z.string(),
  control: ComparisonSide,
  treatment: ComparisonSide,
  /** The treatment's lift over the control: relative (0.2 is 20 % higher) or, with a control at zero, absolute. */
  differenceType: z.enum(['relative', 'absolute']).nullable(),
  effect: z.number().nullable(),
  /** The always-valid one-sided interval: open (null) on the side that is not harm. */
  interval: z.object({ lower: z.number().nullable(), upper: z.number().nullable() }).nullable(),
  pValue: z.number().nullable(),
  /** The configured share of the treatment, and the split check's p-value; null where the split is not simple. */
  treatmentShare: z.number().nullable(),
  sampleRatioPValue: z.number().nullable(),
});
export type ComparisonReading = z.infer<typeof ComparisonReading>;

const SafeguardBase = z.object({
  id: z.string(),
  triggerCondition: SafeguardTrigger,
  impactMetric: SafeguardMetricInput.extend({ id: z.string() }),
  /** When it last tripped, with the value that tripped it; null while it holds. */
  triggeredAt: z.string().nullable(),
  triggeredValue: z.number().nullable(),
  /** The last time it was evaluated, and why not when the metric could not be read. */
  evaluatedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** A guardrail's settings; null for a threshold. */
  comparison: SafeguardComparison.nullable().optional(),
  /** A guardrail's last look: what it decided and the figures behind it. */
  lastComparison: ComparisonReading.nullable().optional(),
});

export const PlanSafeguard = SafeguardBase.extend({
  action: z.object({ type: z.literal('pauseReleasePlanProgressions'), id: z.string() }),
});
export const EnvironmentSafeguard = SafeguardBase.extend({
  action: z.object({
    type: z.literal('disableFeatureEnvironment'),
    featureName: z.string(),
    environment: z.string(),
    project: z.string(),
  }),
});
export type PlanSafeguard = z.infer<typeof PlanSafeguard>;
export type EnvironmentSafeguard = z.infer<typeof EnvironmentSafeguard>;
export const Safeguard = z.union([PlanSafeguard, EnvironmentSafeguard]);
export type Safeguard = z.infer<typeof Safeguard>;

export const ReleasePlan = z.object({
  id: z.string(),
  discriminator: z.literal('plan'),
  name: z.string(),
  description: z.string().nullable(),
  featureName: z.string(),
  environment: z.string(),
  createdByUserId: z.number(),
  createdAt: z.string(),
  activeMilestoneId: z.string().nullable(),
  releasePlanTemplateId: z.string(),
  milestones: z.array(Milestone),
  safeguards: z.array(PlanSafeguard),
});
export type ReleasePlan = z.infer<typeof ReleasePlan>;

/** POST .../release-plans */
export const AddReleasePlan = z.object({ templateId: ReleaseId });

/** PUT .../progressions/{sourceMilestoneId} */
export const ChangeProgression = z.object({
  targetMilestone: ReleaseId,
  transitionCondition: PlanTransitionCondition,
});
export const Progression = z.object({
  sourceMilestone: z.string(),
  targetMilestone: z.string(),
  transitionCondition: TransitionCondition,
});

/** A strategy of a milestone kept with it: what starting the milestone writes among the flag's strategies. */
export const StoredMilestoneStrategy = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  sortOrder: z.number(),
  constraints: z.array(Constraint),
  variants: z.array(StrategyVariant),
  parameters: z.record(z.string(), z.string()),
  segments: z.array(z.number()),
});
export type StoredMilestoneStrategy = z.infer<typeof StoredMilestoneStrategy>;

/** GET /api/admin/release-plan-templates, a project's /release-templates */
export const ReleaseTemplateList = z.array(ReleaseTemplate);
/** GET .../environments/{environment}/release-plans */
export const ReleasePlanList = z.array(ReleasePlan);
