import { describe, expect, it } from 'vitest';
import type { ClientFeature } from '@bunting/contracts';
import { PlanLane, PreparedContext, compileEngine, evaluateFeature } from './index.ts';

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick, chance: (probability: number) => next() < probability };
}

const COUNTRIES = ['NO', 'SE', 'DK', 'US'];

function randomVariants(random: ReturnType<typeof generator>) {
  const count = random.pick([0, 0, 1, 2, 3]);
  const stickiness = random.pick(['default', 'default', 'default', 'userId', 'country', undefined]);
  return Array.from({ length: count }, (_, index) => ({
    name: `v${index}`,
    weight: random.pick([0, 1, 333, 500, 1000]),
    weightType: 'variable',
    stickiness,
    ...(random.chance(0.5) ? { payload: { type: 'string', value: `p${index}` } } : {}),
    ...(random.chance(0.15) ? { overrides: [{ contextName: 'userId', values: ['u-1', 'u-7'] }] } : {}),
  }));
}

function randomStrategy(random: ReturnType<typeof generator>, name: string) {
  const kind = random.pick([
    'flexibleRollout',
    'flexibleRollout',
    'flexibleRollout',
    'default',
    'default',
    'userWithId',
    'gradualRolloutUserId',
  ]);
  const parameters: Record<string, string> = {};
  if (kind === 'flexibleRollout') {
    parameters.rollout = String(random.pick([0, 0.5, 1, 12.5, 25, 50, 99, 99.9, 100, 150]));
    parameters.stickiness = random.pick(['default', 'default', 'default', 'userId', 'sessionId', 'random', 'country']);
    if (random.chance(0.7)) parameters.groupId = random.pick([name, 'shared-group']);
  }
  if (kind === 'userWithId') parameters.userIds = 'u-1, u-2, u-3';
  if (kind === 'gradualRolloutUserId') Object.assign(parameters, { percentage: '50', groupId: name });
  return {
    name: kind,
    parameters,
    disabled: random.chance(0.1),
    constraints: random.chance(0.5)
      ? [{ contextName: 'country', operator: random.pick(['IN', 'NOT_IN']), values: COUNTRIES.slice(0, 2) }]
      : [],
    segments: random.chance(0.1) ? [random.pick([1, 99])] : [],
    variants: randomVariants(random),
  };
}

function randomFeatures(random: ReturnType<typeof generator>, count: number): ClientFeature[] {
  return Array.from({ length: count }, (_, index) => {
    const name = `flag-${index}`;
    const strategies = Array.from({ length: random.pick([0, 1, 1, 1, 1, 2]) }, () => randomStrategy(random, name));
    return {
      name,
      enabled: random.chance(0.9),
      strategies,
      variants: randomVariants(random),
      ...(index > 0 && random.chance(0.1) ? { dependencies: [{ feature: `flag-${index - 1}` }] } : {}),
    } as unknown as ClientFeature;
  });
}

function randomContext(random: ReturnType<typeof generator>) {
  return {
    ...(random.chance(0.8)
      ? { userId: random.pick(['u-1', 'u-7', `user-${Math.floor(random.next() * 1000)}`, '']) }
      : {}),
    ...(random.chance(0.3) ? { sessionId: `s-${Math.floor(random.next() * 100)}` } : {}),
    ...(random.chance(0.5) ? { remoteAddress: '10.0.0.1' } : {}),
    properties: random.chance(0.8) ? { country: random.pick(COUNTRIES) } : {},
  };
}

/**
 * Seed `seed`'s 60 random flags compiled as the edge does and with every flag on the general path (the same fixed
 * draw in both, so random stickiness answers alike), and the generator that goes on to draw the contexts.
 */
function enginesFor(seed: number) {
  const random = generator(seed);
  const features = randomFeatures(random, 60);
  const state = {
    features,
    segments: [{ id: 1, constraints: [{ contextName: 'country', operator: 'IN' as const, values: ['NO'] }] }],
  };
  const options = { random: () => 0.37 };
  return {
    random,
    simple: compileEngine(state, options),
    general: compileEngine(state, { ...options, generalOnly: true }),
  };
}

describe('simple plans', () => {
  it('answer as the general path does, for random flags and contexts', () => {
    let simpleFlags = 0;
    let compared = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const { random, simple, general } = enginesFor(seed);
      simpleFlags += simple.features.filter((feature) => feature.plan.simple !== null).length;
      for (let round = 0; round < 50; round += 1) {
        const raw = randomContext(random);
        const onSimple = new PreparedContext(raw);
        const onGeneral = new PreparedContext(raw);
        for (const feature of simple.features) {
          const expected = evaluateFeature(general.get(feature.name)!, onGeneral);
          const actual = evaluateFeature(feature, onSimple);
          expect(
            { enabled: actual.enabled, slot: actual.slot, variant: actual.variant?.name },
            `seed ${seed}, ${feature.name}, ${JSON.stringify(raw)}`,
          ).toEqual({ enabled: expected.enabled, slot: expected.slot, variant: expected.variant?.name });
          compared += 1;
        }
      }
    }
    // Both kinds were met: a good share of the flags had a simple plan, the rest the general path.
    expect(simpleFlags).toBeGreaterThan(40 * 60 * 0.2);
    expect(simpleFlags).toBeLessThan(40 * 60 * 0.8);
    expect(compared).toBe(40 * 60 * 50);
  });
});

describe('plan lanes', () => {
  it('give the slot of the general path for every flag, for random flags and contexts', () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const { random, simple: engine, general } = enginesFor(seed);
      const lane = new PlanLane(engine.features);
      // Longer than the lane: only its first `size` entries are written.
      const slots = new Int32Array(lane.size + 3).fill(-7);
      for (let round = 0; round < 50; round += 1) {
        const raw = randomContext(random);
        const context = new PreparedContext(raw);
        const onGeneral = new PreparedContext(raw);
        lane.slotsOf(context, slots);
        const expected = general.features.map((feature) => evaluateFeature(feature, onGeneral).slot);
        expect([...slots.subarray(0, lane.size)], `seed ${seed}, ${JSON.stringify(raw)}`).toEqual(expected);
        expect([...slots.subarray(lane.size)]).toEqual([-7, -7, -7]);
        // Each slot names the answer it stands for.
        for (let index = 0; index < lane.size; index += 1) {
          if (slots[index]! >= 0) expect(engine.features[index]!.answers[slots[index]!]!.slot).toBe(slots[index]);
        }
        compared += lane.size;
      }
    }
    expect(compared).toBe(40 * 60 * 50);
  });
});
