import { describe, expect, it } from 'vitest';
import type { StrategyDefinition } from '@bunting/contracts';
import { stickinessOptions } from '../context-fields/stickiness.ts';
import { copyBody, defaultParameters, draftProblems, newStrategyDraft, strategyBody } from './strategy-draft.ts';
import { movedOrder, strategySummary } from '../strategy-definitions/strategy-summary.ts';

const flexibleRollout: StrategyDefinition = {
  name: 'flexibleRollout',
  displayName: 'Gradual rollout',
  description: null,
  editable: false,
  deprecated: false,
  parameters: [
    { name: 'rollout', type: 'percentage', required: false },
    { name: 'stickiness', type: 'string', required: true },
    { name: 'groupId', type: 'string', required: true },
  ],
};

describe('strategy drafts', () => {
  it('start a rollout at 100 % with default stickiness, grouped by the flag', () => {
    expect(defaultParameters(flexibleRollout, 'checkout')).toEqual({
      rollout: '100',
      stickiness: 'default',
      groupId: 'checkout',
    });
  });

  it('offer the built-in stickiness and context fields marked for it', () => {
    const fields = [
      { name: 'tenant', stickiness: true },
      { name: 'plan', stickiness: false },
    ] as never[];
    expect(stickinessOptions(fields)).toEqual(['default', 'userId', 'sessionId', 'random', 'tenant']);
  });

  it('find required parameters left empty and unfinished constraints', () => {
    const draft = {
      ...newStrategyDraft(flexibleRollout, 'flexibleRollout', 'x'),
      parameters: { rollout: '50', stickiness: 'default', groupId: ' ' },
    };
    draft.constraints = [{ contextName: 'userId', operator: 'IN', values: [] }];
    const problems = draftProblems(draft, flexibleRollout);
    expect(problems.parameters).toEqual({ groupId: 'Required' });
    expect(problems.constraints).toEqual(['Add at least one value']);
    expect(problems.any).toBe(true);
  });

  it('send what the API accepts, and copy a strategy without its id', () => {
    const strategy = {
      id: 'abc',
      name: 'flexibleRollout',
      title: null,
      disabled: false,
      featureName: 'x',
      sortOrder: 3,
      segments: [2],
      constraints: [
        { contextName: 'country', operator: 'IN', values: ['NO'], inverted: false, caseInsensitive: false },
      ],
      variants: [],
      parameters: { rollout: '50', stickiness: 'default', groupId: 'x' },
    };
    expect(copyBody(strategy)).toEqual({
      name: 'flexibleRollout',
      title: null,
      disabled: false,
      parameters: { rollout: '50', stickiness: 'default', groupId: 'x' },
      constraints: [
        { contextName: 'country', operator: 'IN', values: ['NO'], inverted: false, caseInsensitive: false },
      ],
      segments: [2],
      variants: [],
    });
    expect(strategyBody({ ...newStrategyDraft(undefined, 'default', 'x'), title: '  ' }).title).toBeNull();
  });
});

describe('strategy summaries and order', () => {
  it('say what a strategy does', () => {
    expect(
      strategySummary({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'g' } }),
    ).toBe('50 % of users, group g');
    expect(strategySummary({ name: 'userWithId', parameters: { userIds: 'a,b,c,d,e,f' } })).toBe(
      'Users a, b, c, d and 2 more',
    );
    expect(strategySummary({ name: 'custom', parameters: {} })).toBe('No parameters');
  });
  it('move a strategy up or down, and not past the ends', () => {
    const strategies = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(movedOrder(strategies, 'c', -1)).toEqual([
      { id: 'a', sortOrder: 0 },
      { id: 'c', sortOrder: 1 },
      { id: 'b', sortOrder: 2 },
    ]);
    expect(movedOrder(strategies, 'a', -1).map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
  });
});
