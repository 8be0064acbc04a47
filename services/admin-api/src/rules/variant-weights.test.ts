import { describe, expect, it } from 'vitest';
import { distributeWeights, normalizeEnvironmentVariants } from './variant-weights.ts';

describe('variant weights on write', () => {
  it('splits what the fixed variants leave evenly, the remainder to the first variable ones in the order given', () => {
    const result = distributeWeights([
      { name: 'c', weight: 0, weightType: 'variable' as const },
      { name: 'a', weight: 100, weightType: 'fix' as const },
      { name: 'b', weight: 0, weightType: 'variable' as const },
      { name: 'd', weight: 0, weightType: 'variable' as const },
    ]);
    expect(result.map((variant) => [variant.name, variant.weight])).toEqual([
      ['a', 100],
      ['b', 300],
      ['c', 300],
      ['d', 300],
    ]);
    const uneven = distributeWeights([
      { name: 'x', weight: 1, weightType: 'variable' as const },
      { name: 'y', weight: 1, weightType: 'variable' as const },
      { name: 'z', weight: 1, weightType: 'variable' as const },
    ]);
    expect(uneven.map((variant) => variant.weight)).toEqual([334, 333, 333]);
  });

  it('sorts by name with locale-aware comparison (a before B)', () => {
    const result = distributeWeights(
      ['B', 'a', 'C', 'b'].map((name) => ({ name, weight: 0, weightType: 'variable' as const })),
    );
    expect(result.map((variant) => variant.name)).toEqual(['a', 'b', 'B', 'C']);
  });

  it('refuses no variable variant, fixed weights over 1000 and duplicate names', () => {
    expect(() => distributeWeights([{ name: 'a', weight: 1000, weightType: 'fix' as const }])).toThrow(/variable/);
    expect(() =>
      distributeWeights([
        { name: 'a', weight: 800, weightType: 'fix' as const },
        { name: 'b', weight: 300, weightType: 'fix' as const },
        { name: 'c', weight: 0, weightType: 'variable' as const },
      ]),
    ).toThrow(/1000/);
    expect(() =>
      distributeWeights([
        { name: 'a', weight: 0, weightType: 'variable' as const },
        { name: 'a', weight: 0, weightType: 'variable' as const },
      ]),
    ).toThrow(/unique/);
  });

  it('fills feature-environment variant defaults', () => {
    const [variant] = normalizeEnvironmentVariants([{ name: 'only', weight: 5 }]);
    expect(variant).toEqual({ name: 'only', weight: 1000, weightType: 'variable', stickiness: 'default' });
  });
});
