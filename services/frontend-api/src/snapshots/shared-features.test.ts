import { describe, expect, it } from 'vitest';
import type { ClientFeature, EnvironmentSnapshot } from '@bunting/contracts';
import { PreparedContext, evaluateFeature } from '@bunting/evaluation';
import { selectFeatures } from '../client/client-payload.ts';
import { compileEnvironment } from './compiled-environment.ts';
import { createSharedFeatures } from './shared-features.ts';

const rollout = (name: string, id: string, percent = '50'): ClientFeature =>
  ({
    name,
    type: 'release',
    enabled: true,
    project: 'default',
    strategies: [
      {
        id,
        name: 'flexibleRollout',
        constraints: [{ contextName: 'segmentless', operator: 'IN', values: ['a', 'b'] }],
        parameters: { rollout: percent, stickiness: 'default', groupId: name },
        variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
        segments: [1],
      },
    ],
    variants: [],
  }) as ClientFeature;

const snapshot = (environment: string, features: ClientFeature[], segmentValue = 'x'): EnvironmentSnapshot => ({
  environment,
  features: features.map((feature) => structuredClone(feature)) as EnvironmentSnapshot['features'],
  segments: [{ id: 1, constraints: [{ contextName: 'plan', operator: 'IN', values: [segmentValue] }] }],
});

describe('flags shared between environments', () => {
  it('compiles a flag once when environments hold it equal but for its strategy ids, and keeps each its own ids', () => {
    const shared = createSharedFeatures();
    const development = compileEnvironment(
      snapshot('development', [rollout('same', 'dev-1'), rollout('differs', 'dev-2', '10')]),
      1,
      'host',
      undefined,
      shared,
    );
    const production = compileEnvironment(
      snapshot('production', [rollout('same', 'prod-1'), rollout('differs', 'prod-2', '90')]),
      1,
      'host',
      undefined,
      shared,
    );
    expect(production.engine.get('same')).toBe(development.engine.get('same'));
    expect(production.engine.get('differs')).not.toBe(development.engine.get('differs'));
    // Each environment's own definitions still name its own strategies.
    const ids = (environment: typeof development) =>
      selectFeatures(environment, { projects: ['*'], inlineSegments: false }).map(
        (feature) => feature.strategies?.[0]?.id,
      );
    expect(ids(development)).toEqual(['dev-1', 'dev-2']);
    expect(ids(production)).toEqual(['prod-1', 'prod-2']);
    // And answer as if compiled alone.
    const alone = compileEnvironment(snapshot('production', [rollout('same', 'prod-1')]), 1, 'host');
    for (let user = 0; user < 100; user += 1) {
      const context = new PreparedContext({ userId: `u-${user}`, properties: { segmentless: 'a', plan: 'x' } });
      expect(evaluateFeature(production.engine.get('same')!, context)).toEqual(
        evaluateFeature(alone.engine.get('same')!, context),
      );
    }
  });

  it('does not share between environments whose segments differ, as plans hold the constraints of their segments', () => {
    const shared = createSharedFeatures();
    const one = compileEnvironment(snapshot('one', [rollout('same', 'a')], 'x'), 1, 'host', undefined, shared);
    const two = compileEnvironment(snapshot('two', [rollout('same', 'b')], 'y'), 1, 'host', undefined, shared);
    expect(two.engine.get('same')).not.toBe(one.engine.get('same'));
    const context = new PreparedContext({ userId: 'u-1', properties: { segmentless: 'a', plan: 'y' } });
    expect(evaluateFeature(one.engine.get('same')!, context).enabled).toBe(false);
  });

  it('lends a flag to the next revision of its own environment by its object', () => {
    const shared = createSharedFeatures();
    const first = snapshot('development', [rollout('same', 'dev-1')]);
    const compiled = compileEnvironment(first, 1, 'host', undefined, shared);
    const next = compileEnvironment(first, 2, 'host', compiled, shared);
    expect(next.engine.get('same')).toBe(compiled.engine.get('same'));
  });
});
