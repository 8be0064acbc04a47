import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import { prepareContext, type Context, type PreparedContext } from './context.ts';
import { compileStrategy, type CompiledStrategy } from './strategies.ts';
import { compileVariantSelection, type Random, type VariantDefinition } from './variants.ts';

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
};

export type CompiledFeature = {
  name: string;
  project: string | undefined;
  impressionData: boolean;
  source: ClientFeature;
  /** Evaluates for a context prepared once per request (see prepareContext). */
  evaluate: (context: PreparedContext) => Evaluation;
};

export type EngineOptions = { hostname?: string; random?: Random };

export type Engine = {
  features: readonly CompiledFeature[];
  get: (name: string) => CompiledFeature | undefined;
  isEnabled: (name: string, context: Context | PreparedContext) => boolean;
  getVariant: (name: string, context: Context | PreparedContext) => VariantResult;
};

const OFF: Evaluation = { enabled: false, variant: undefined };
const ON_WITHOUT_VARIANT: Evaluation = { enabled: true, variant: undefined };

/** The answer for a variant, made when compiling, so evaluating allocates nothing per request. */
function onWith(variant: VariantDefinition): Evaluation {
  return { enabled: true, variant };
}

/**
 * Compiles a configuration (features and segments) once into evaluators, so a request only walks closures.
 * Answers as the Unleash Node SDK does for the same configuration and context.
 */
export function compileEngine(state: { features: readonly ClientFeature[]; segments?: readonly ClientSegment[] }, options: EngineOptions = {}): Engine {
  const strategyOptions = { hostname: options.hostname ?? 'undefined', random: options.random ?? Math.random };
  const segments = new Map((state.segments ?? []).map((segment) => [segment.id, segment.constraints]));
  const byName = new Map<string, CompiledFeature>();
  const compiled: CompiledFeature[] = [];

  for (const feature of state.features) {
    const strategies: CompiledStrategy<Evaluation>[] = (feature.strategies ?? [])
      .filter((strategy) => strategy.disabled !== true)
      .map((strategy) => compileStrategy(strategy, feature.name, segments, strategyOptions, onWith));
    const variants = (feature.variants ?? []) as VariantDefinition[];
    const selectFeatureVariant = variants.length > 0
      ? compileVariantSelection(variants, feature.name, variants[0]?.stickiness, strategyOptions.random, variants.map(onWith))
      : undefined;
    const dependencies = feature.dependencies ?? [];
    const hasStrategies = Array.isArray(feature.strategies) && feature.strategies.length > 0;

    const parentsSatisfied = (context: PreparedContext): boolean => {
      for (const dependency of dependencies) {
        const parent = byName.get(dependency.feature);
        if (!parent || (parent.source.dependencies?.length ?? 0) > 0) return false;
        if (dependency.enabled === false) {
          if (parent.evaluate(context).enabled) return false;
          continue;
        }
        const result = parent.evaluate(context);
        if (!result.enabled) return false;
        if (dependency.variants && dependency.variants.length > 0) {
          const variantName = result.variant?.name ?? 'disabled';
          if (!dependency.variants.includes(variantName)) return false;
        }
      }
      return true;
    };

    const evaluate = (context: PreparedContext): Evaluation => {
      if (!feature.enabled) return OFF;
      if (dependencies.length > 0 && !parentsSatisfied(context)) return OFF;
      if (hasStrategies) {
        let winner: CompiledStrategy<Evaluation> | undefined;
        for (const strategy of strategies) {
          if (strategy.isOn(context)) {
            winner = strategy;
            break;
          }
        }
        if (!winner) return OFF;
        const chosen = winner.selectVariant?.(context);
        if (chosen) return chosen;
      }
      if (!selectFeatureVariant) return ON_WITHOUT_VARIANT;
      return selectFeatureVariant(context) ?? ON_WITHOUT_VARIANT;
    };

    const entry: CompiledFeature = {
      name: feature.name,
      project: feature.project,
      impressionData: feature.impressionData === true,
      source: feature,
      evaluate,
    };
    byName.set(feature.name, entry);
    compiled.push(entry);
  }

  return {
    features: compiled,
    get: (name) => byName.get(name),
    isEnabled: (name, context) => byName.get(name)?.evaluate(prepareContext(context)).enabled ?? false,
    getVariant: (name, context) => {
      const feature = byName.get(name);
      if (!feature) return { name: 'disabled', enabled: false, feature_enabled: false };
      return variantResult(feature.evaluate(prepareContext(context)));
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
