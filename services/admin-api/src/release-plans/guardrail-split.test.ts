import { describe, expect, it } from 'vitest';
import { treatmentShareOf } from './guardrail-look.ts';

const strategy = (name: string, extra: Partial<Parameters<typeof treatmentShareOf>[0][number]> = {}) => ({
  name,
  disabled: false,
  constraints: [],
  segments: [],
  parameters: {},
  ...extra,
});

describe("a guardrail's split, read off the flag environment's strategies", () => {
  it("is a lone gradual rollout's percentage, everyone for a default strategy or none", () => {
    expect(treatmentShareOf([strategy('flexibleRollout', { parameters: { rollout: '25' } })])).toBe(0.25);
    expect(treatmentShareOf([strategy('default')])).toBe(1);
    expect(treatmentShareOf([])).toBe(1);
    expect(
      treatmentShareOf([
        strategy('default', { disabled: true }),
        strategy('flexibleRollout', { parameters: { rollout: '10' } }),
      ]),
    ).toBe(0.1);
  });

  it('is not read where constraints, segments or several strategies make it depend on who asks', () => {
    expect(treatmentShareOf([strategy('flexibleRollout', { constraints: [{}] })])).toBeNull();
    expect(treatmentShareOf([strategy('flexibleRollout', { segments: [1] })])).toBeNull();
    expect(treatmentShareOf([strategy('flexibleRollout'), strategy('default')])).toBeNull();
    expect(treatmentShareOf([strategy('userWithId')])).toBeNull();
  });
});
