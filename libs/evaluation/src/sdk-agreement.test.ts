import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PreparedContext } from './context.ts';
import { compileEngine } from './engine.ts';

/**
 * The engine against the real unleash-client 6.12 evaluating the same payload locally (the oracle Unleash
 * documents for evaluation): random flags and contexts from a seeded generator, every pair compared.
 * Math.random is pinned in both so that random stickiness and its fallbacks give one answer.
 */
const require = createRequire(import.meta.url);
const UnleashClient = require('unleash-client/lib/client').default;
const { defaultStrategies } = require('unleash-client/lib/strategy');

function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick, chance: (p: number) => next() < p };
}

const FIELDS = ['userId', 'sessionId', 'plan', 'age', 'version', 'email'];
const VALUES = ['', '0', '1', '5', '17', '42', 'a', 'pro', 'free', '1.2.3', '2.0.0', 'x@example.com', 'v1.0.0', '-3'];

function constraintFor(random: ReturnType<typeof generator>) {
  const contextName = random.pick(FIELDS);
  const operator = random.pick([
    'IN',
    'NOT_IN',
    'STR_CONTAINS',
    'STR_STARTS_WITH',
    'NUM_LTE',
    'NUM_GT',
    'NUM_EQ',
    'SEMVER_GT',
    'SEMVER_LT',
    'REGEX',
  ]);
  const inverted = random.chance(0.3);
  const caseInsensitive = random.chance(0.2);
  if (operator.startsWith('NUM_'))
    return { contextName, operator, inverted, value: random.pick(['0', '1', '10', '-1']) };
  if (operator.startsWith('SEMVER_'))
    return { contextName, operator, inverted, value: random.pick(['1.0.0', '2.0.0']) };
  if (operator === 'REGEX')
    return { contextName, operator, inverted, caseInsensitive, value: random.pick(['^$', '^p', '.*', '\\d']) };
  return {
    contextName,
    operator,
    inverted,
    caseInsensitive,
    values: [random.pick(VALUES.filter(Boolean)), random.pick(VALUES.filter(Boolean))],
  };
}

function variantsFor(random: ReturnType<typeof generator>) {
  const count = 1 + Math.floor(random.next() * 3);
  const stickiness = random.pick(['default', 'userId', 'plan', undefined]);
  return Array.from({ length: count }, (_, index) => ({
    name: `v${index}`,
    weight: index === 0 ? 1000 - 300 * (count - 1) : 300,
    weightType: 'variable',
    ...(stickiness ? { stickiness } : {}),
    payload: { type: 'string', value: `p${index}` },
  }));
}

function strategyFor(random: ReturnType<typeof generator>, flag: string) {
  const name = random.pick(['default', 'flexibleRollout', 'flexibleRollout', 'userWithId', 'remoteAddress']);
  const parameters: Record<string, string> =
    name === 'flexibleRollout'
      ? {
          rollout: random.pick(['0', '30', '50', '100']),
          stickiness: random.pick(['default', 'userId', 'sessionId', 'plan']),
          groupId: random.chance(0.8) ? flag : 'shared',
        }
      : name === 'userWithId'
        ? { userIds: '1, 5,a' }
        : name === 'remoteAddress'
          ? { IPs: '10.0.0.1' }
          : {};
  return {
    name,
    parameters,
    constraints: Array.from({ length: Math.floor(random.next() * 3) }, () => constraintFor(random)),
    variants: random.chance(0.4) ? variantsFor(random) : [],
  };
}

function featuresFor(seed: number, count: number) {
  const random = generator(seed);
  return Array.from({ length: count }, (_, index) => {
    const name = `flag-${index}`;
    return {
      name,
      enabled: true,
      type: 'release',
      project: 'default',
      impressionData: false,
      strategies: Array.from({ length: 1 + Math.floor(random.next() * 2) }, () => strategyFor(random, name)),
      variants: random.chance(0.4) ? variantsFor(random) : [],
    };
  });
}

function contextsFor(seed: number, count: number) {
  const random = generator(seed);
  return Array.from({ length: count }, () => {
    const context: Record<string, unknown> = { remoteAddress: random.pick(['10.0.0.1', '10.0.0.2', '']) };
    const properties: Record<string, string> = {};
    for (const field of FIELDS) {
      if (random.chance(0.35)) continue;
      const value = random.pick(VALUES);
      if (field === 'userId' || field === 'sessionId') context[field] = value;
      else properties[field] = value;
    }
    return { ...context, properties };
  });
}

describe('the engine against unleash-client evaluating the same payload', () => {
  beforeAll(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0.37);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it.each([1, 2, 3])('agrees on every flag and context (seed %i)', (seed) => {
    const features = featuresFor(seed, 150);
    const contexts = contextsFor(seed * 7919, 200);
    const sdk = new UnleashClient(
      { getToggle: (name: string) => features.find((feature) => feature.name === name), getSegment: () => undefined },
      defaultStrategies,
    );
    const engine = compileEngine({ features: features as never }, { random: () => 0.37 });
    const differences: string[] = [];
    for (const raw of contexts) {
      const context = new PreparedContext(raw);
      for (const feature of features) {
        const expected = sdk.getVariant(feature.name, raw);
        const actual = engine.getVariant(feature.name, context);
        if (actual.feature_enabled !== expected.feature_enabled || actual.name !== expected.name) {
          differences.push(
            `${feature.name} ${JSON.stringify(raw)}: sdk ${expected.feature_enabled}/${expected.name}, engine ${actual.feature_enabled}/${actual.name}`,
          );
        }
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
  });

  it('hashes the variants of a strategy without groupId as the SDK does ("undefined:<id>")', () => {
    // For userId 5, "undefined:5" falls in Blue's 770 and "dark-mode:5" (the flag's name) in control's 230.
    const features = [
      {
        name: 'dark-mode',
        enabled: true,
        strategies: [
          {
            name: 'default',
            parameters: {},
            constraints: [],
            variants: [
              { name: 'Blue', weight: 770, weightType: 'variable', stickiness: 'userId' },
              { name: 'control', weight: 230, weightType: 'fix', stickiness: 'userId' },
            ],
          },
        ],
      },
    ];
    const engine = compileEngine({ features: features as never });
    expect(engine.getVariant('dark-mode', new PreparedContext({ userId: '5' })).name).toBe('Blue');
  });

  it('counts an empty context value as present, as the SDK does', () => {
    const features = [
      {
        name: 'low',
        enabled: true,
        strategies: [
          { name: 'default', parameters: {}, constraints: [{ contextName: 'age', operator: 'NUM_LTE', value: '0' }] },
        ],
      },
      {
        name: 'not-low',
        enabled: true,
        strategies: [
          {
            name: 'default',
            parameters: {},
            constraints: [{ contextName: 'age', operator: 'NUM_LTE', value: '0', inverted: true }],
          },
        ],
      },
      {
        name: 'empty-match',
        enabled: true,
        strategies: [
          { name: 'default', parameters: {}, constraints: [{ contextName: 'userId', operator: 'REGEX', value: '^$' }] },
        ],
      },
    ];
    const engine = compileEngine({ features: features });
    const empty = new PreparedContext({ userId: '', properties: { age: '' } });
    const missing = new PreparedContext({});
    expect(['low', 'not-low', 'empty-match'].map((name) => engine.isEnabled(name, empty))).toEqual([true, false, true]);
    expect(['low', 'not-low', 'empty-match'].map((name) => engine.isEnabled(name, missing))).toEqual([
      false,
      true,
      false,
    ]);
  });
});
