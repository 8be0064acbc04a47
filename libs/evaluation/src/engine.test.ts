import { describe, expect, it } from 'vitest';
import { PreparedContext } from './context.ts';
import { compileEngine, evaluateFeature } from './engine.ts';
import { VARIANT_SEED, normalizedValue } from './hashing.ts';

const inNorway = { contextName: 'country', operator: 'IN' as const, values: ['NO'] };

function flag(name: string, constraints: object[], segments: number[] = []) {
  return { name, enabled: true, strategies: [{ name: 'default', constraints, segments, parameters: {} }] } as never;
}

describe('compileEngine', () => {
  it('shares identical constraint lists across flags without carrying one request\'s answer into the next', () => {
    const engine = compileEngine({
      features: [flag('a', [inNorway]), flag('b', [inNorway]), flag('c', [], [1])],
      segments: [{ id: 1, constraints: [inNorway] } as never],
    });
    const norway = new PreparedContext({ properties: { country: 'NO' } });
    const sweden = new PreparedContext({ properties: { country: 'SE' } });
    for (let round = 0; round < 3; round += 1) {
      expect(engine.features.map((feature) => evaluateFeature(feature, norway).enabled)).toEqual([true, true, true]);
      expect(engine.features.map((feature) => evaluateFeature(feature, sweden).enabled)).toEqual([false, false, false]);
    }
  });

  it('hashes two different stickiness ids in one request correctly', () => {
    const engine = compileEngine({
      features: [{
        name: 'split', enabled: true,
        strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'sessionId', groupId: 'split' }, constraints: [],
          variants: [{ name: 'x', weight: 500, stickiness: 'userId' }, { name: 'y', weight: 500, stickiness: 'userId' }] }],
      } as never],
    });
    const names = new Set<string>();
    for (let index = 0; index < 40; index += 1) {
      const context = new PreparedContext({ userId: `user-${index}`, sessionId: `session-${index}` });
      // The rollout hashes the sessionId and the variant the userId, both within this one context.
      const expected = normalizedValue(`user-${index}`, 'split', 1000, VARIANT_SEED) <= 500 ? 'x' : 'y';
      expect(engine.getVariant('split', context).name).toBe(expected);
      expect(engine.getVariant('split', context).name).toBe(expected);
      names.add(expected);
    }
    expect(names).toEqual(new Set(['x', 'y']));
  });
});
