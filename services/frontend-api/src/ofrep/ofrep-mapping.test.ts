import { describe, expect, it } from 'vitest';
import { compileEngine, evaluateFeature, PreparedContext } from '@bunting/evaluation';
import { ofrepContext } from './ofrep-context.ts';
import { ofrepResult } from './ofrep-evaluation.ts';
import { OfrepTable } from './ofrep-table.ts';
import { compileEnvironment } from '../snapshots/compiled-environment.ts';

describe('ofrepContext', () => {
  it('takes targetingKey as the userId, Unleash fields by name and anything else as a property', () => {
    expect(
      ofrepContext(
        {
          context: {
            targetingKey: 'u1',
            appName: 'web',
            plan: 'pro',
            seats: 3,
            nested: { a: 1 },
            properties: { region: 'eu' },
          },
        },
        '10.0.0.1',
      ),
    ).toEqual({
      userId: 'u1',
      appName: 'web',
      remoteAddress: '10.0.0.1',
      properties: { plan: 'pro', seats: '3', nested: '{"a":1}', region: 'eu' },
    });
    expect(ofrepContext({ context: { targetingKey: 'u1', userId: 'explicit' } }, '::1').userId).toBe('explicit');
    expect(ofrepContext(undefined, '::1')).toEqual({ remoteAddress: '::1', properties: {} });
  });

  it('refuses a context that is not an object or a currentTime that is not a date with INVALID_CONTEXT', () => {
    for (const body of [{ context: 'everyone' }, { context: [1] }, [], { context: { currentTime: 'soon' } }]) {
      expect(() => ofrepContext(body, '::1')).toThrow(
        expect.objectContaining({ status: 400, extra: expect.objectContaining({ errorCode: 'INVALID_CONTEXT' }) }),
      );
    }
  });
});

const features = [
  {
    name: 'plain',
    enabled: true,
    project: 'p',
    type: 'release',
    strategies: [{ name: 'default', parameters: {}, constraints: [] }],
  },
  {
    name: 'off-here',
    enabled: false,
    project: 'p',
    type: 'kill-switch',
    strategies: [{ name: 'default', parameters: {}, constraints: [] }],
  },
  {
    name: 'pros-only',
    enabled: true,
    project: 'p',
    strategies: [
      { name: 'default', parameters: {}, constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] },
    ],
  },
  {
    name: 'by-user',
    enabled: true,
    project: 'p',
    strategies: [
      {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'userId', groupId: 'by-user' },
        constraints: [],
      },
    ],
  },
  ...(['string', 'number', 'json'] as const).map((type, index) => ({
    name: `${type}-flag`,
    enabled: true,
    project: 'p',
    impressionData: true,
    strategies: [{ name: 'default', parameters: {}, constraints: [] }],
    variants: [
      {
        name: 'only',
        weight: 1000,
        weightType: 'variable',
        payload: { type, value: ['hello', '42.5', '{"size":3}'][index] },
      },
    ],
  })),
  {
    name: 'bad-number',
    enabled: true,
    project: 'p',
    strategies: [{ name: 'default', parameters: {}, constraints: [] }],
    variants: [{ name: 'x', weight: 1000, payload: { type: 'number', value: 'many' } }],
  },
];
const engine = compileEngine({ features: features as never });
const answer = (name: string, raw: Record<string, unknown>, targetingKey = raw.userId !== undefined) => {
  const feature = engine.features.find((candidate) => candidate.name === name)!;
  return ofrepResult(feature.source, evaluateFeature(feature, new PreparedContext(raw)), targetingKey);
};

describe('ofrepResult', () => {
  it('answers flags without variants as booleans, with the reason', () => {
    expect(answer('plain', {})).toEqual({
      key: 'plain',
      value: true,
      reason: 'TARGETING_MATCH',
      variant: 'on',
      metadata: { project: 'p', flagType: 'release', impressionData: false },
    });
    expect(answer('off-here', {})).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(answer('pros-only', { properties: { plan: 'free' } })).toMatchObject({ value: false, reason: 'DEFAULT' });
    expect(answer('pros-only', { properties: { plan: 'pro' } })).toMatchObject({
      value: true,
      reason: 'TARGETING_MATCH',
    });
  });

  it('answers variant flags with their typed payload, and a parse error for a payload that is not its type', () => {
    expect(answer('string-flag', {})).toMatchObject({
      value: 'hello',
      reason: 'SPLIT',
      variant: 'only',
      metadata: { impressionData: true },
    });
    expect(answer('number-flag', {})).toMatchObject({ value: 42.5, reason: 'SPLIT' });
    expect(answer('json-flag', {})).toMatchObject({ value: { size: 3 }, reason: 'SPLIT' });
    expect(answer('bad-number', {})).toEqual({
      key: 'bad-number',
      errorCode: 'PARSE_ERROR',
      errorDetails: expect.stringContaining('not a number'),
    });
  });

  it('says the targeting key is missing when a rollout by userId had none', () => {
    expect(answer('by-user', {})).toMatchObject({ errorCode: 'TARGETING_KEY_MISSING' });
    expect(answer('by-user', { userId: 'u1' })).toMatchObject({ value: true });
  });
});

describe('OfrepTable', () => {
  /** Every flag above in one table, and contexts with and without a targeting key (whether one was given). */
  const tableOfAll = () => {
    const environment = compileEnvironment({ environment: 'development', features, segments: [] } as never, 1, 'host');
    const visible = environment.visibleFeatures(['*']);
    return { visible, table: new OfrepTable(visible) };
  };
  const contexts: [Record<string, unknown>, boolean][] = [
    [{}, false],
    [{ userId: 'u1' }, true],
    [{ properties: { plan: 'pro' } }, false],
    [{ properties: { plan: 'free' } }, false],
  ];

  it("gathers each flag's answer as JSON, encoded once per answer, never mixing what the context decides", () => {
    const { visible, table } = tableOfAll();
    const slots = new Int32Array(visible.length);
    const picked = new Int32Array(visible.length);
    // Twice over, so the second pass answers from what the first kept.
    for (let pass = 0; pass < 2; pass += 1) {
      for (const [raw, targetingKey] of contexts) {
        const results = visible.map((feature) => evaluateFeature(feature.compiled, new PreparedContext(raw)));
        results.forEach((result, index) => (slots[index] = result.slot));
        table.gather(slots, visible.length, targetingKey, picked);
        const expected = visible.map((feature, index) =>
          JSON.stringify(ofrepResult(feature.compiled.source, results[index]!, targetingKey)),
        );
        expect(Array.from(picked, (entry) => table.parts[entry]!.toString())).toEqual(expected);
        expect(table.gatheredBytes).toBe(expected.reduce((sum, json) => sum + Buffer.byteLength(json) + 1, 0));
      }
    }
  });

  it("answers one flag as the one-flag route sends it: the bulk entry with cacheable, or the entry's error", () => {
    const { visible, table } = tableOfAll();
    expect(table.indexOf('no-such-flag')).toBe(-1);
    for (let pass = 0; pass < 2; pass += 1) {
      for (const [raw, targetingKey] of contexts) {
        for (const feature of visible) {
          const index = table.indexOf(feature.compiled.name);
          expect(visible[index]).toBe(feature);
          const result = evaluateFeature(feature.compiled, new PreparedContext(raw));
          const expected = ofrepResult(feature.compiled.source, result, targetingKey);
          const single = table.single(index, result.slot, targetingKey);
          if ('errorCode' in expected) expect(single).toEqual(expected);
          else expect(JSON.parse((single as Buffer).toString())).toEqual({ ...expected, cacheable: false });
        }
      }
    }
  });
});
