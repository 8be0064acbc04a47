import { describe, expect, it } from 'vitest';
import { movedMilestone, newMilestone, templateBody, templateProblem, type TemplateDraft } from './template-draft.ts';

const draft = (): TemplateDraft => ({
  name: ' Careful ',
  description: '',
  milestones: [
    {
      ...newMilestone('Internal'),
      interval: '30',
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100' } }],
    },
    { ...newMilestone('Everyone'), interval: '15', strategies: [] },
  ],
  safeguards: [],
});

describe('template drafts', () => {
  it('become the body the API takes: in order, the last milestone without a transition', () => {
    expect(templateBody(draft())).toEqual({
      name: 'Careful',
      milestones: [
        {
          name: 'Internal',
          sortOrder: 0,
          transitionCondition: { intervalMinutes: 30 },
          strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100' }, sortOrder: 0 }],
        },
        { name: 'Everyone', sortOrder: 1, transitionCondition: null, strategies: [] },
      ],
      safeguards: [],
    });
  });

  it('carry a wait for the guardrails where an interval is set, and the safeguards every plan starts with', () => {
    const guardrail = {
      impactMetric: { metricName: 'errors', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
      comparison: { harm: 'increase', alpha: 0.05, minimumSample: 500 },
    } as const;
    const [first, last] = draft().milestones;
    const body = templateBody({
      ...draft(),
      milestones: [
        { ...first!, waitForGuardrails: true },
        { ...last!, waitForGuardrails: true },
      ],
      safeguards: [guardrail],
    });
    expect(body.milestones!.map((milestone) => milestone.transitionCondition)).toEqual([
      { intervalMinutes: 30, waitForGuardrails: true },
      null,
    ]);
    expect(body.safeguards).toEqual([guardrail]);
  });

  it('say what is missing before they are sent', () => {
    expect(templateProblem(draft())).toBeNull();
    expect(templateProblem({ ...draft(), name: ' ' })).toMatch(/name/);
    expect(
      templateProblem({ ...draft(), milestones: [{ ...newMilestone('A'), interval: '0' }, newMilestone('B')] }),
    ).toMatch(/at least 1/);
    expect(
      templateProblem({ ...draft(), milestones: [{ ...newMilestone('A'), interval: '1.5' }, newMilestone('B')] }),
    ).toMatch(/whole number/);
  });

  it('move milestones up and down, not past either end', () => {
    const milestones = draft().milestones;
    expect(movedMilestone(milestones, 1, -1).map((one) => one.name)).toEqual(['Everyone', 'Internal']);
    expect(movedMilestone(milestones, 0, -1).map((one) => one.name)).toEqual(['Internal', 'Everyone']);
  });
});
