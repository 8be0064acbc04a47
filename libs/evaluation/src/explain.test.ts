import { describe, expect, it } from 'vitest';
import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import { explainFeature } from './explain.ts';

const segments = new Map<number, ClientSegment>([
  [1, { id: 1, name: 'staff', constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['@corp'] }] }],
]);
const feature: ClientFeature = {
  name: 'checkout',
  enabled: true,
  strategies: [
    {
      id: 's1',
      name: 'flexibleRollout',
      parameters: { rollout: 100, stickiness: 'default', groupId: 'checkout' },
      constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }],
      segments: [],
    },
    { id: 's2', name: 'default', constraints: [], segments: [1] },
  ],
  variants: [{ name: 'blue', weight: 1000, stickiness: 'default' }],
};

describe('explainFeature', () => {
  it('gives each strategy, constraint and segment its own result, and the engine answer', () => {
    const explained = explainFeature(feature, segments, {
      appName: 'a',
      userId: 'ann@corp',
      properties: { country: 'SE' },
    });
    expect(explained.strategies.data.map((strategy) => strategy.result)).toEqual([
      { evaluationStatus: 'complete', enabled: false },
      { evaluationStatus: 'complete', enabled: true },
    ]);
    expect(explained.strategies.data[0]!.constraints[0]!.result).toBe(false);
    expect(explained.strategies.data[0]!.parameters).toEqual({
      rollout: '100',
      stickiness: 'default',
      groupId: 'checkout',
    });
    expect(explained.strategies.data[1]!.segments).toEqual([
      { id: 1, name: 'staff', result: true, constraints: [expect.objectContaining({ result: true })] },
    ]);
    expect(explained).toMatchObject({
      isEnabled: true,
      isEnabledInCurrentEnvironment: true,
      hasUnsatisfiedDependency: false,
      strategies: { result: true },
    });
    expect(explained.variant).toMatchObject({ name: 'blue', enabled: true, feature_enabled: true });
  });

  it('is off when no strategy holds, and says so for a flag off in the environment', () => {
    const off = explainFeature(feature, segments, { appName: 'a', userId: 'bob@home', properties: { country: 'SE' } });
    expect(off).toMatchObject({ isEnabled: false, strategies: { result: false } });
    expect(off.variant).toMatchObject({ name: 'disabled', enabled: false });
    const disabled = explainFeature({ ...feature, enabled: false }, segments, {
      appName: 'a',
      properties: { country: 'NO' },
    });
    expect(disabled).toMatchObject({
      isEnabled: false,
      isEnabledInCurrentEnvironment: false,
      strategies: { result: true },
    });
  });

  it('cannot judge a custom strategy, and names an unmet dependency', () => {
    const custom = explainFeature(
      { name: 'c', enabled: true, strategies: [{ id: 'x', name: 'my-custom', constraints: [] }] },
      segments,
      { appName: 'a' },
    );
    expect(custom.strategies).toMatchObject({
      result: 'unknown',
      data: [{ result: { evaluationStatus: 'incomplete', enabled: 'unknown' } }],
    });
    expect(custom.isEnabled).toBe(false);
    const child = explainFeature(
      { name: 'child', enabled: true, strategies: [], dependencies: [{ feature: 'parent', enabled: true }] },
      segments,
      { appName: 'a' },
    );
    expect(child).toMatchObject({ isEnabled: false, hasUnsatisfiedDependency: true, strategies: { result: true } });
  });
});
