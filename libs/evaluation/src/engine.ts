import type { ClientFeature, ClientSegment, ClientStrategy } from '@bunting/contracts';
import { prepareContext, type Context, type PreparedContext } from './context.ts';
import { StrategyPlan, strategyIsOn, type StrategyOptions } from './strategies.ts';
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
  /**
   * The definition it was compiled from. A feature lent between environments (see EngineOptions.lend) keeps the
   * first one's: everything but its strategies' ids, which decide nothing, is the same.
   */
  source: ClientFeature;
  /** What evaluateFeature reads; many flags in a loop are fastest through it. */
  plan: FeaturePlan;
  /** Every answer it gives when on, by slot (0: on without a variant), for callers that work with slots. */
  answers: readonly Evaluation[];
  /**
   * What a caller derives from this feature (the frontend API's encoded answers), kept with it for as long as later
   * engines lend it on (see EngineOptions.reuse), so it is not derived again after a change to another flag.
   */
  attached: unknown;
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

/**
 * `generalOnly` leaves out the simple plans (tests compare the two paths). `reuse`, an engine compiled with the same
 * options and segments, lends each feature whose source is the very same object and which has no parents (a parent
 * is looked up in the engine that compiled it) instead of compiling it again: a change to one of 10,000 flags
 * compiles one. `lend` does the same for any feature without parents the caller already holds compiled with the
 * same options and segments (another environment's equal flag); `compiled` is told of each feature compiled anew.
 */
export type EngineOptions = {
  hostname?: string;
  random?: Random;
  generalOnly?: boolean;
  reuse?: Engine;
  lend?: (feature: ClientFeature) => CompiledFeature | undefined;
  compiled?: (feature: ClientFeature, compiled: CompiledFeature) => void;
};

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
export function compileEngine(
  state: { features: readonly ClientFeature[]; segments?: readonly ClientSegment[] },
  options: EngineOptions = {},
): Engine {
  const strategyOptions = {
    hostname: options.hostname ?? 'undefined',
    random: options.random ?? Math.random,
    sharedConstraints: new Map(),
  };
  const segments = new Map((state.segments ?? []).map((segment) => [segment.id, segment.constraints]));
  const byName = new Map<string, CompiledFeature>();
  const compiled: CompiledFeature[] = [];

  for (const feature of state.features) {
    const parents = (feature.dependencies?.length ?? 0) > 0;
    const reused = parents ? undefined : options.reuse?.get(feature.name);
    let entry =
      reused !== undefined && reused.source === feature ? reused : parents ? undefined : options.lend?.(feature);
    if (entry === undefined) {
      entry = compileFeature(feature, byName, segments, strategyOptions, options.generalOnly === true);
      if (!parents) options.compiled?.(feature, entry);
    }
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

/**
 * One feature. A closure keeps its whole enclosing scope alive, so each is made by a function of its own: a feature
 * lent to later engines keeps nothing of the engine that compiled it (only a feature with parents holds `byName`, and
 * such a feature is never lent), and a run of changes does not chain the engines together.
 */
function compileFeature(
  feature: ClientFeature,
  byName: ReadonlyMap<string, CompiledFeature>,
  segments: ReadonlyMap<number, ClientStrategy['constraints']>,
  strategyOptions: StrategyOptions,
  generalOnly: boolean,
): CompiledFeature {
  // The answers for variants are made when compiling, so evaluating allocates nothing per request.
  const answers: Evaluation[] = [ON_WITHOUT_VARIANT];
  const onWith = answerMaker(answers);
  const strategies = (feature.strategies ?? [])
    .filter((strategy) => strategy.disabled !== true)
    .map((strategy) => new StrategyPlan(strategy, feature.name, segments, strategyOptions, onWith));
  const variants = (feature.variants ?? []) as VariantDefinition[];
  const dependencies = feature.dependencies ?? [];
  const hasStrategies = Array.isArray(feature.strategies) && feature.strategies.length > 0;
  const variantPlan =
    variants.length > 0
      ? new VariantPlan(variants, feature.name, variants[0]?.stickiness, strategyOptions.random, variants.map(onWith))
      : null;
  const plan: FeaturePlan = {
    enabled: feature.enabled === true,
    parentsSatisfied: dependencies.length > 0 ? parentsCheck(dependencies, byName) : null,
    hasStrategies,
    strategies,
    variants: variantPlan,
    simple: generalOnly
      ? null
      : simplePlanOf(dependencies.length > 0, hasStrategies, strategies, variantPlan, ON_WITHOUT_VARIANT),
  };
  const entry: CompiledFeature = {
    name: feature.name,
    project: feature.project,
    impressionData: feature.impressionData === true,
    source: feature,
    plan,
    answers,
    attached: undefined,
  };
  return entry;
}

function answerMaker(answers: Evaluation[]): (variant: VariantDefinition) => Evaluation {
  return (variant) => {
    const answer: Evaluation = { enabled: true, variant, slot: answers.length };
    answers.push(answer);
    return answer;
  };
}

function parentsCheck(
  dependencies: NonNullable<ClientFeature['dependencies']>,
  byName: ReadonlyMap<string, CompiledFeature>,
) {
  return (context: PreparedContext): boolean => {
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
}

export function variantResult(result: Evaluation): VariantResult {
  if (!result.enabled) return { name: 'disabled', enabled: false, feature_enabled: false };
  if (!result.variant) return { name: 'disabled', enabled: false, feature_enabled: true };
  const answer: VariantResult = { name: result.variant.name, enabled: true, feature_enabled: true };
  if (result.variant.payload) answer.payload = result.variant.payload;
  return answer;
}
