import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import { prepareContext, type Context, type PreparedContext } from './context.ts';
import { StrategyPlan, strategyIsOn } from './strategies.ts';
import { VariantPlan, selectVariant, type Random, type VariantDefinition } from './variants.ts';
import { evaluateSimple, simplePlanOf, type SimplePlan } from './simple-plan.ts';

/** The variant answer SDKs give; `feature_enabled` tells whether the flag itself was on. */
export type VariantResult = {
  name: string;
  enabled: boolean;
  payload?: VariantDefinition['payload'];
  feature_enabled: boolean;
};

export type Evaluation = {
  enabled: boolean;
  /** The winning variant definition, or undefined for the "disabled" variant. Same object on every call. */
  variant: VariantDefinition | undefined;
  /**
   * Numbers a feature's answers: -1 off, 0 on without a variant, 1.. on with one of its variants. A caller
   * that encodes answers (the frontend API) can keep them in an array indexed by it.
   */
  slot: number;
};

export type CompiledFeature = {
  name: string;
  project: string | undefined;
  impressionData: boolean;
  source: ClientFeature;
  /** Evaluates for a context prepared once per request (see prepareContext). */
  evaluate: (context: PreparedContext) => Evaluation;
  /** What evaluateFeature reads; many flags in a loop are fastest through it. */
  plan: FeaturePlan;
  /** Every answer it gives when on, by slot (0: on without a variant), for callers that work with slots. */
  answers: readonly Evaluation[];
};

/** A feature compiled into one object shape, so that evaluating many flags runs one monomorphic path. */
export type FeaturePlan = {
  enabled: boolean;
  /** Checks the feature's parents; null when it has none. */
  parentsSatisfied: ((context: PreparedContext) => boolean) | null;
  hasStrategies: boolean;
  strategies: readonly StrategyPlan<Evaluation>[];
  variants: VariantPlan<Evaluation> | null;
  /** The same flag from one object when its shape allows (see simple-plan.ts); null otherwise. */
  simple: SimplePlan<Evaluation> | null;
};

/** `generalOnly` leaves out the simple plans (tests compare the two paths). */
export type EngineOptions = { hostname?: string; random?: Random; generalOnly?: boolean };

export type Engine = {
  features: readonly CompiledFeature[];
  get: (name: string) => CompiledFeature | undefined;
  isEnabled: (name: string, context: Context | PreparedContext) => boolean;
  getVariant: (name: string, context: Context | PreparedContext) => VariantResult;
};

const OFF: Evaluation = { enabled: false, variant: undefined, slot: -1 };
const ON_WITHOUT_VARIANT: Evaluation = { enabled: true, variant: undefined, slot: 0 };

export function evaluateFeature(feature: CompiledFeature, context: PreparedContext): Evaluation {
  const plan = feature.plan;
  if (!plan.enabled) return OFF;
  if (plan.simple !== null) {
    const answer = evaluateSimple(plan.simple, context, OFF);
    if (answer !== undefined) return answer;
  }
  return evaluateGeneral(plan, context);
}

/** Any flag: parents, each strategy in turn, then the winner's variants or the flag's. */
function evaluateGeneral(plan: FeaturePlan, context: PreparedContext): Evaluation {
  if (plan.parentsSatisfied !== null && !plan.parentsSatisfied(context)) return OFF;
  if (plan.hasStrategies) {
    const strategies = plan.strategies;
    let winner: StrategyPlan<Evaluation> | undefined;
    for (let index = 0; index < strategies.length; index += 1) {
      if (strategyIsOn(strategies[index]!, context)) {
        winner = strategies[index];
        break;
      }
    }
    if (winner === undefined) return OFF;
    if (winner.variants !== null) {
      const chosen = selectVariant(winner.variants, context);
      if (chosen) return chosen;
    }
  }
  if (plan.variants === null) return ON_WITHOUT_VARIANT;
  return selectVariant(plan.variants, context) ?? ON_WITHOUT_VARIANT;
}

/**
 * Compiles a configuration (features and segments) once into evaluators, so a request only walks closures.
 * Answers as the Unleash Node SDK does for the same configuration and context.
 */
export function compileEngine(state: { features: readonly ClientFeature[]; segments?: readonly ClientSegment[] }, options: EngineOptions = {}): Engine {
  const strategyOptions = { hostname: options.hostname ?? 'undefined', random: options.random ?? Math.random, sharedConstraints: new Map() };
  const segments = new Map((state.segments ?? []).map((segment) => [segment.id, segment.constraints]));
  const byName = new Map<string, CompiledFeature>();
  const compiled: CompiledFeature[] = [];

  for (const feature of state.features) {
    // The answers for variants are made when compiling, so evaluating allocates nothing per request.
    const answers: Evaluation[] = [ON_WITHOUT_VARIANT];
    const onWith = (variant: VariantDefinition): Evaluation => {
      const answer: Evaluation = { enabled: true, variant, slot: answers.length };
      answers.push(answer);
      return answer;
    };
    const strategies = (feature.strategies ?? [])
      .filter((strategy) => strategy.disabled !== true)
      .map((strategy) => new StrategyPlan(strategy, feature.name, segments, strategyOptions, onWith));
    const variants = (feature.variants ?? []) as VariantDefinition[];
    const dependencies = feature.dependencies ?? [];

    const parentsSatisfied = (context: PreparedContext): boolean => {
      for (const dependency of dependencies) {
        const parent = byName.get(dependency.feature);
        if (!parent || (parent.source.dependencies?.length ?? 0) > 0) return false;
        if (dependency.enabled === false) {
          if (evaluateFeature(parent, context).enabled) return false;
          continue;
        }
        const result = evaluateFeature(parent, context);
        if (!result.enabled) return false;
        if (dependency.variants && dependency.variants.length > 0) {
          const variantName = result.variant?.name ?? 'disabled';
          if (!dependency.variants.includes(variantName)) return false;
        }
      }
      return true;
    };

    const hasStrategies = Array.isArray(feature.strategies) && feature.strategies.length > 0;
    const variantPlan = variants.length > 0
      ? new VariantPlan(variants, feature.name, variants[0]?.stickiness, strategyOptions.random, variants.map(onWith))
      : null;
    const plan: FeaturePlan = {
      enabled: feature.enabled === true,
      parentsSatisfied: dependencies.length > 0 ? parentsSatisfied : null,
      hasStrategies,
      strategies,
      variants: variantPlan,
      simple: options.generalOnly ? null : simplePlanOf(dependencies.length > 0, hasStrategies, strategies, variantPlan, ON_WITHOUT_VARIANT),
    };
    const entry: CompiledFeature = {
      name: feature.name,
      project: feature.project,
      impressionData: feature.impressionData === true,
      source: feature,
      evaluate: (context) => evaluateFeature(entry, context),
      plan,
      answers,
    };
    byName.set(feature.name, entry);
    compiled.push(entry);
  }

  return {
    features: compiled,
    get: (name) => byName.get(name),
    isEnabled: (name, context) => {
      const feature = byName.get(name);
      return feature !== undefined && evaluateFeature(feature, prepareContext(context)).enabled;
    },
    getVariant: (name, context) => {
      const feature = byName.get(name);
      if (!feature) return { name: 'disabled', enabled: false, feature_enabled: false };
      return variantResult(evaluateFeature(feature, prepareContext(context)));
    },
  };
}

export function variantResult(result: Evaluation): VariantResult {
  if (!result.enabled) return { name: 'disabled', enabled: false, feature_enabled: false };
  if (!result.variant) return { name: 'disabled', enabled: false, feature_enabled: true };
  const answer: VariantResult = { name: result.variant.name, enabled: true, feature_enabled: true };
  if (result.variant.payload) answer.payload = result.variant.payload;
  return answer;
}
