import { describe, expect, it } from 'vitest';
import { compileEnvironment } from './compiled-environment.ts';

const features = [
  { name: 'plain', enabled: true, project: 'p', strategies: [{ name: 'default', parameters: {}, constraints: [] }] },
  {
    name: 'split',
    enabled: true,
    project: 'p',
    impressionData: true,
    strategies: [
      {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'split' },
        constraints: [],
        variants: [
          { name: 'a', weight: 500, stickiness: 'default' },
          { name: 'b', weight: 500, stickiness: 'default', payload: { type: 'string', value: 'x' } },
        ],
      },
    ],
    variants: [{ name: 'flag-level', weight: 1000, stickiness: 'default' }],
  },
  { name: 'off', enabled: false, project: 'q', strategies: [] },
];

describe('the toggle table', () => {
  it("keeps each flag's toggle by slot, the off toggle at -1, in entries of its own", () => {
    const environment = compileEnvironment({ environment: 'development', features, segments: [] } as never, 1, 'host');
    const visible = environment.visibleFeatures(['*']);
    const { toggles } = environment.answering(visible);
    expect(environment.answering(visible).toggles).toBe(toggles);
    const seen = new Set<number>();
    // Twice over: the second pass reads what the first encoded.
    for (let pass = 0; pass < 2; pass += 1) {
      visible.forEach((feature, index) => {
        for (let slot = -1; slot < feature.compiled.answers.length; slot += 1) {
          const entry = toggles.entry(index, slot);
          const expected = slot < 0 ? feature.offToggle : feature.toggle(feature.compiled.answers[slot]!);
          expect(toggles.parts[entry]!.toString(), `${feature.compiled.name} slot ${slot}`).toBe(expected.toString());
          expect(toggles.lengths[entry]).toBe(expected.length);
          if (pass === 0) {
            expect(seen.has(entry)).toBe(false);
            seen.add(entry);
          }
        }
      });
    }
    // plain: off, on; split: off, on, three variants (two of the strategy's, one of the flag's); off: off, on.
    expect(seen.size).toBe(2 + 5 + 2);
    expect(JSON.parse(toggles.parts[toggles.entry(1, 2)]!.toString())).toMatchObject({
      name: 'split',
      variant: { name: 'b', payload: { value: 'x' } },
      impressionData: true,
    });
    expect(JSON.parse(toggles.parts[toggles.entry(2, -1)]!.toString())).toMatchObject({ name: 'off', enabled: false });
  });

  it('gathers the entries of the flags that are on, in order, with their bytes and a comma each', () => {
    const environment = compileEnvironment({ environment: 'development', features, segments: [] } as never, 1, 'host');
    const visible = environment.visibleFeatures(['*']);
    const { toggles } = environment.answering(visible);
    // Longer than the flags: only the first `count` entries of picked belong to the answer.
    const picked = new Int32Array(8).fill(-9);
    for (const slots of [
      [-1, -1, -1],
      [0, -1, -1],
      [-1, 2, 0],
      [0, 3, 0],
      [0, 0, -1],
    ]) {
      const count = toggles.gatherOn(Int32Array.from(slots), slots.length, picked);
      const expected = slots.flatMap((slot, index) => (slot < 0 ? [] : [toggles.entry(index, slot)]));
      expect([...picked.subarray(0, count)], JSON.stringify(slots)).toEqual(expected);
      expect(toggles.gatheredBytes).toBe(expected.reduce((sum, entry) => sum + toggles.lengths[entry]! + 1, 0));
    }
  });
});
