import type {
  ClientFeature,
  ClientSegment,
  ClientStrategy,
  Constraint,
  ExplainedConstraint,
  ExplainedFeature,
  ExplainedStrategy,
} from '@bunting/contracts';
import { compileConstraint } from './constraints.ts';
import { prepareContext, type Context } from './context.ts';
import { compileEngine, evaluateFeature, variantResult, type EngineOptions } from './engine.ts';

/** The built-in strategies the engine evaluates; any other name is a custom strategy it cannot judge. */
const KNOWN_STRATEGIES = new Set([
  'default',
  'flexibleRollout',
  'userWithId',
  'remoteAddress',
  'applicationHostname',
  'gradualRolloutRandom',
  'gradualRolloutSessionId',
  'gradualRolloutUserId',
]);

/**
 * Why a flag answers as it does for a context (the admin playground): each strategy's own check, each
 * constraint and each segment separately. The answer itself always comes from the engine, so the explanation
 * can never disagree with what SDKs and /api/frontend say.
 */
export function explainFeature(
  feature: ClientFeature,
  segments: ReadonlyMap<number, ClientSegment>,
  context: Context,
  options: EngineOptions = {},
): ExplainedFeature {
  const prepared = prepareContext(context);
  const explain = (constraint: Constraint): ExplainedConstraint => ({
    ...constraint,
    result: compileConstraint(constraint)(prepared),
  });
  const data = (feature.strategies ?? []).map((strategy): ExplainedStrategy => {
    const constraints = (strategy.constraints ?? []).map(explain);
    const explainedSegments = (strategy.segments ?? []).map((id) => {
      const segment = segments.get(id);
      const segmentConstraints = (segment?.constraints ?? []).map(explain);
      return {
        id,
        name: segment?.name ?? String(id),
        result: segment !== undefined && segmentConstraints.every((c) => c.result),
        constraints: segmentConstraints,
      };
    });
    const conditionsHold = constraints.every((c) => c.result) && explainedSegments.every((s) => s.result);
    const base = {
      id: strategy.id ?? '',
      name: strategy.name,
      ...(strategy.title ? { title: strategy.title } : {}),
      disabled: false,
      parameters: Object.fromEntries(
        Object.entries(strategy.parameters ?? {}).map(([key, value]) => [key, String(value)]),
      ),
      constraints,
      segments: explainedSegments,
    };
    if (!KNOWN_STRATEGIES.has(strategy.name)) {
      return { ...base, result: { evaluationStatus: 'incomplete', enabled: conditionsHold ? 'unknown' : false } };
    }
    return {
      ...base,
      result: {
        evaluationStatus: 'complete',
        enabled: conditionsHold && strategyOwnCheck(feature.name, strategy, prepared, options),
      },
    };
  });

  const results = data.map((strategy) => strategy.result.enabled);
  const strategiesResult: boolean | 'unknown' =
    data.length === 0 || results.includes(true) ? true : results.includes('unknown') ? 'unknown' : false;
  const engine = compileEngine({ features: [feature], segments: [...segments.values()] }, options);
  const compiled = engine.get(feature.name)!;
  const answer = evaluateFeature(compiled, prepared);
  return {
    strategies: { result: strategiesResult, data },
    isEnabledInCurrentEnvironment: feature.enabled,
    isEnabled: answer.enabled,
    hasUnsatisfiedDependency:
      feature.enabled && strategiesResult === true && !answer.enabled && (feature.dependencies ?? []).length > 0,
    variant: variantResult(answer),
  };
}

/** The strategy's own rule (rollout, user ids, addresses...) with its constraints and segments left out. */
function strategyOwnCheck(
  name: string,
  strategy: ClientStrategy,
  context: ReturnType<typeof prepareContext>,
  options: EngineOptions,
): boolean {
  const bare = { ...strategy, constraints: [], segments: [], variants: [] };
  const engine = compileEngine({ features: [{ name, enabled: true, strategies: [bare] }] }, options);
  return evaluateFeature(engine.get(name)!, context).enabled;
}
