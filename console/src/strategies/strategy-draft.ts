import type { ConstraintInput, CreateFeatureStrategy, FeatureStrategy, StrategyDefinition } from '@bunting/contracts';
import { constraintProblem, toWire as constraintToWire } from '../constraints/constraint-values.ts';
import { toDraft, toWire as variantsToWire, variantsReady, type VariantDraft } from '../variants/variant-drafts.ts';

/** A new strategy's parameters: rollouts start at 100 % with default stickiness, grouped by the flag's name. */
export function defaultParameters(
  definition: StrategyDefinition | undefined,
  flagName: string,
): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const parameter of definition?.parameters ?? []) {
    if (parameter.name === 'stickiness') parameters.stickiness = 'default';
    else if (parameter.name === 'groupId') parameters.groupId = flagName;
    else if (parameter.type === 'percentage') parameters[parameter.name] = '100';
    else if (parameter.type === 'boolean') parameters[parameter.name] = 'false';
  }
  return parameters;
}

/** Required parameters left empty, by name. */
export function missingParameters(
  definition: StrategyDefinition | undefined,
  parameters: Record<string, string>,
): string[] {
  return (definition?.parameters ?? [])
    .filter((parameter) => parameter.required && !(parameters[parameter.name] ?? '').trim())
    .map((parameter) => parameter.name);
}

/** A strategy as its editor holds it. */
export type StrategyDraft = {
  name: string;
  title: string;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: ConstraintInput[];
  segments: number[];
  variants: VariantDraft[];
};

export function draftOf(strategy: FeatureStrategy): StrategyDraft {
  return {
    name: strategy.name,
    title: strategy.title ?? '',
    disabled: strategy.disabled,
    parameters: { ...strategy.parameters },
    constraints: strategy.constraints.map((constraint) => ({
      ...constraint,
      operator: constraint.operator as ConstraintInput['operator'],
    })),
    segments: [...strategy.segments],
    variants: strategy.variants.map(toDraft),
  };
}

export function newStrategyDraft(
  definition: StrategyDefinition | undefined,
  name: string,
  flagName: string,
): StrategyDraft {
  return {
    name,
    title: '',
    disabled: false,
    parameters: defaultParameters(definition, flagName),
    constraints: [],
    segments: [],
    variants: [],
  };
}

/** The body of a create or update: what the API accepts for a feature strategy. */
export function strategyBody(draft: StrategyDraft): CreateFeatureStrategy {
  return {
    name: draft.name,
    title: draft.title.trim() || null,
    disabled: draft.disabled,
    parameters: draft.parameters,
    constraints: draft.constraints.map(constraintToWire),
    segments: draft.segments,
    variants: variantsToWire(draft.variants, false),
  };
}

/** A strategy copied elsewhere: the same rules, without what belongs to the original (its id and order). */
export function copyBody(strategy: FeatureStrategy): CreateFeatureStrategy {
  return strategyBody(draftOf(strategy));
}

/** What stops the draft from being saved, found before asking the server. */
export function draftProblems(draft: StrategyDraft, definition: StrategyDefinition | undefined) {
  const constraints = draft.constraints.map((constraint) => constraintProblem(constraint));
  const missing = missingParameters(definition, draft.parameters);
  return {
    constraints,
    parameters: Object.fromEntries(missing.map((name) => [name, 'Required'])) as Record<string, string | undefined>,
    variants: !variantsReady(draft.variants),
    any: constraints.some(Boolean) || missing.length > 0 || !variantsReady(draft.variants),
  };
}
