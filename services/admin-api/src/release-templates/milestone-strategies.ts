import { CreateFeatureStrategy, type MilestoneStrategyInput, type StoredMilestoneStrategy } from '@bunting/contracts';
import { ulid, type Queryable } from '@bunting/platform';
import { normalizeStrategy } from '../rules/strategy-rules.ts';

/**
 * A milestone's strategies as kept: checked by the rules a flag's strategy is checked by (a known strategy,
 * constraints, existing segments, percentages, variant weights), each with an id, in the order given. A
 * flexibleRollout's group id is left empty unless one is given, so that it becomes the flag's name when the
 * milestone starts on a flag.
 */
export async function storedStrategies(
  db: Queryable,
  inputs: readonly MilestoneStrategyInput[],
  keepIds: ReadonlySet<string> = new Set(),
): Promise<StoredMilestoneStrategy[]> {
  const stored: StoredMilestoneStrategy[] = [];
  for (const [index, input] of inputs.entries()) {
    const { id, strategyName, ...rest } = input;
    const name = rest.name ?? strategyName!;
    const write = await normalizeStrategy(db, CreateFeatureStrategy.parse({ ...rest, name }), {
      featureName: '',
      defaultStickiness: 'default',
      sortOrder: index,
    });
    const parameters = { ...write.parameters };
    if (name === 'flexibleRollout' && !rest.parameters?.groupId) delete parameters.groupId;
    stored.push({
      id: id && keepIds.has(id) ? id : ulid(),
      name: write.name,
      title: write.title,
      disabled: write.disabled,
      sortOrder: input.sortOrder ?? index,
      constraints: write.constraints,
      variants: write.variants,
      parameters,
      segments: write.segments,
    });
  }
  return stored;
}

/** A kept strategy as milestones answer it. */
export const milestoneStrategyView = (milestoneId: string, strategy: StoredMilestoneStrategy) => ({
  id: strategy.id,
  milestoneId,
  sortOrder: strategy.sortOrder,
  title: strategy.title,
  name: strategy.name,
  strategyName: strategy.name,
  parameters: strategy.parameters,
  constraints: strategy.constraints,
  variants: strategy.variants,
  segments: strategy.segments,
  disabled: strategy.disabled,
});
