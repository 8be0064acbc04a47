import { describe, expect, it } from 'vitest';
import { PreparedContext } from './context.ts';
import { compileEngine, evaluateFeature } from './engine.ts';
import { VARIANT_SEED, normalizedValue } from './hashing.ts';
import type { ClientFeature } from '@bunting/contracts';

const inNorway = { contextName: 'country', operator: 'IN' as const, values: ['NO'] };

function flag(name: string, constraints: object[], segments: number[] = []) {
  return { name, enabled: true, strategies: [{ name: 'default', constraints, segments, parameters: {} }] } as never;
}

describe('compileEngine', () => {
  it("shares identical constraint lists across flags without carrying one request's answer into the next", () => {
    const engine = compileEngine({
      features: [flag('a', [inNorway]), flag('b', [inNorway]), flag('c', [], [1])],
      segments: [{ id: 1, constraints: [inNorway] }],
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
      features: [
        {
          name: 'split',
          enabled: true,
          strategies: [
            {
              name: 'flexibleRollout',
              parameters: { rollout: '100', stickiness: 'sessionId', groupId: 'split' },
              constraints: [],
              variants: [
                { name: 'x', weight: 500, stickiness: 'userId' },
                { name: 'y', weight: 500, stickiness: 'userId' },
              ],
            },
          ],
        },
      ],
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

  it('lends a later engine the features that are the very same objects, and answers as a fresh compile does', () => {
    const rollout = (name: string, percent: number) =>
      ({
        name,
        enabled: true,
        project: 'default',
        strategies: [
          {
            name: 'flexibleRollout',
            parameters: { rollout: String(percent), stickiness: 'default', groupId: name },
            constraints: [],
          },
        ],
        variants: [
          { name: 'blue', weight: 500, stickiness: 'default' },
          { name: 'green', weight: 500, stickiness: 'default' },
        ],
      }) as never as ClientFeature;
    const parent = rollout('parent', 50);
    const child = { ...rollout('child', 100), dependencies: [{ feature: 'parent' }] } as ClientFeature;
    const others = Array.from({ length: 20 }, (_, index) => rollout(`flag-${index}`, index * 5));
    const first = compileEngine({ features: [parent, child, ...others] });
    // The parent changes (a new object), one flag is removed and one is added.
    const changedParent = rollout('parent', 10);
    const added = rollout('added', 70);
    const features = [changedParent, child, ...others.slice(1), added];
    const lent = compileEngine({ features }, { reuse: first });
    const fresh = compileEngine({ features });

    for (const other of others.slice(1)) expect(lent.get(other.name)).toBe(first.get(other.name));
    // Changed and added flags are compiled; a child is always compiled, as it looks up its parent in its own engine.
    expect(lent.get('parent')).not.toBe(first.get('parent'));
    expect(lent.get('child')).not.toBe(first.get('child'));
    expect(lent.get('flag-0')).toBeUndefined();
    for (let index = 0; index < 200; index += 1) {
      const context = new PreparedContext({ userId: `user-${index}` });
      for (const feature of features) {
        expect(lent.getVariant(feature.name, context), `${feature.name} for user-${index}`).toEqual(
          fresh.getVariant(feature.name, context),
        );
      }
    }
  });
});
