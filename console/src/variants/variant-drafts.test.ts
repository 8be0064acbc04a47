import { describe, expect, it } from 'vitest';
import { newDraft, payloadProblem, toDraft, toWire, weightPreview } from './variant-drafts.ts';

describe('variant drafts', () => {
  it('shares what fixed variants leave among the variable ones', () => {
    const drafts = [{ ...newDraft(0), weightType: 'fix' as const, percent: 20 }, newDraft(1), newDraft(2)];
    expect(weightPreview(drafts)).toEqual({ percents: [20, 40, 40] });
  });
  it('refuses fixed weights over 100 %, no variable variant, and repeated names', () => {
    expect(
      weightPreview([
        { ...newDraft(0), weightType: 'fix', percent: 60 },
        { ...newDraft(1), weightType: 'fix', percent: 50 },
      ]).problem,
    ).toMatch(/more than 100/);
    expect(weightPreview([{ ...newDraft(0), weightType: 'fix', percent: 50 }]).problem).toMatch(/variable/);
    expect(weightPreview([newDraft(0), newDraft(0)]).problem).toMatch(/different/);
  });
  it('checks payloads against their type', () => {
    expect(payloadProblem({ payloadType: 'json', payload: '{"a":1}' })).toBeUndefined();
    expect(payloadProblem({ payloadType: 'json', payload: '{a:1}' })).toMatch(/Not valid JSON/);
    expect(payloadProblem({ payloadType: 'number', payload: 'x' })).toBe('Not a number');
    expect(payloadProblem({ payloadType: '', payload: '' })).toBeUndefined();
  });
  it('round-trips a stored variant and sends weights in tenths of a percent', () => {
    const stored = {
      name: 'blue',
      weight: 333,
      weightType: 'fix' as const,
      stickiness: 'userId',
      payload: { type: 'string' as const, value: 'b' },
      overrides: [{ contextName: 'userId', values: ['1'] }],
    };
    expect(toWire([toDraft(stored)], true)).toEqual([stored]);
    expect(toWire([toDraft(stored)], false)[0]).not.toHaveProperty('overrides');
  });
});
