import type { Constraint, CreateFeatureStrategy, StrategyVariant } from '@bunting/contracts';
import { ValidationError, type Queryable } from '@bunting/platform';
import { normalizeConstraints } from './constraint-rules.ts';
import { referenceStore } from './reference-store.ts';
import { distributeWeights } from './variant-weights.ts';

/** A strategy as it is stored, after the rules below. */
export type StrategyWrite = {
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments: number[];
};

const PERCENT_PARAMETERS: Record<string, string> = {
  flexibleRollout: 'rollout',
  gradualRolloutUserId: 'percentage',
  gradualRolloutSessionId: 'percentage',
  gradualRolloutRandom: 'percentage',
};

export type StrategyContext = { featureName: string; defaultStickiness: string; sortOrder: number };

/**
 * Validates a strategy as the reference does on write and returns what is stored: a known strategy name,
 * constraints checked, existing segments, percentages within 0-100, flexibleRollout's groupId, rollout
 * and stickiness filled in, and strategy variant weights distributed.
 */
export async function normalizeStrategy(
  db: Queryable,
  input: CreateFeatureStrategy,
  context: StrategyContext,
): Promise<StrategyWrite> {
  const known = await referenceStore.strategyExists(db, input.name);
  if (!known) throw ValidationError.field('name', `strategy ${input.name} does not exist`);

  const parameters: Record<string, string> = { ...input.parameters };
  if (input.name === 'flexibleRollout') {
    if (!parameters.groupId) parameters.groupId = context.featureName;
    if (parameters.rollout === undefined || parameters.rollout === '') parameters.rollout = '100';
    if (!parameters.stickiness) parameters.stickiness = context.defaultStickiness;
  }
  const percentParameter = PERCENT_PARAMETERS[input.name];
  if (percentParameter && parameters[percentParameter] !== undefined) {
    const percent = Number(parameters[percentParameter]);
    if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
      throw ValidationError.field(`parameters.${percentParameter}`, 'must be a whole number from 0 to 100');
    }
  }

  const segments = [...new Set(input.segments ?? [])];
  if (segments.length > 0) {
    const found = await referenceStore.existingSegments(db, segments);
    const missing = segments.filter((id) => !found.includes(id));
    if (missing.length > 0) throw ValidationError.field('segments', `segment ${missing.join(', ')} does not exist`);
  }

  const variants: StrategyVariant[] = distributeWeights(input.variants ?? [], 'variants').map((variant) => {
    const stored: StrategyVariant = {
      name: variant.name,
      weight: variant.weight,
      weightType: variant.weightType,
      stickiness: variant.stickiness,
    };
    if (variant.payload) stored.payload = variant.payload;
    return stored;
  });

  return {
    name: input.name,
    title: input.title ?? null,
    disabled: input.disabled ?? false,
    sortOrder: input.sortOrder ?? context.sortOrder,
    constraints: await normalizeConstraints(db, input.constraints, 'constraints'),
    parameters,
    variants,
    segments,
  };
}
