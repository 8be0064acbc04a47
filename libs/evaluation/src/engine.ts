import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import type { Context } from './context.ts';
import { compileStrategy, type CompiledStrategy } from './strategies.ts';
import { selectVariant, type Random, type VariantDefinition } from './variants.ts';

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
  evaluate: (context: Context) => Evaluation;
};

export type EngineOptions = { hostname?: string; random?: Random };

export type Engine = {
  features: readonly CompiledFeature[];
  get: (name: string) => CompiledFeature | undefined;
  isEnabled: (name: string, context: Context) => boolean;
  getVariant: (name: string, context: Context) => VariantResult;
};

const OFF: Evaluation = { enabled: false, variant: undefined };

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
    const strategies: CompiledStrategy[] = (feature.strategies ?? [])
      .filter((strategy) => strategy.disabled !== true)
      .map((strategy) => compileStrategy(strategy, feature.name, segments, strategyOptions));
    const variants = (feature.variants ?? []) as VariantDefinition[];
    const dependencies = feature.dependencies ?? [];
    const hasStrategies = Array.isArray(feature.strategies) && feature.strategies.length > 0;

    const parentsSatisfied = (context: Context): boolean => {
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

    const evaluate = (context: Context): Evaluation => {
      if (!feature.enabled) return OFF;
      if (dependencies.length > 0 && !parentsSatisfied(context)) return OFF;
      let strategyVariants: CompiledStrategy | undefined;
      if (hasStrategies) {
        const winner = strategies.find((strategy) => strategy.isOn(context));
        if (!winner) return OFF;
        if (winner.variants.length > 0) strategyVariants = winner;
      }
      if (strategyVariants) {
        const chosen = selectVariant(strategyVariants.variants, strategyVariants.groupId, strategyVariants.stickiness, context, strategyOptions.random);
        if (chosen) return { enabled: true, variant: chosen };
      }
      if (variants.length === 0) return { enabled: true, variant: undefined };
      return { enabled: true, variant: selectVariant(variants, feature.name, variants[0]?.stickiness, context, strategyOptions.random) };
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
    isEnabled: (name, context) => byName.get(name)?.evaluate(context).enabled ?? false,
    getVariant: (name, context) => {
      const feature = byName.get(name);
      if (!feature) return { name: 'disabled', enabled: false, feature_enabled: false };
      const result = feature.evaluate(context);
      return variantResult(result);
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
