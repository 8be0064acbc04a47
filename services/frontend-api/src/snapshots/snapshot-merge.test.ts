import { describe, expect, it } from 'vitest';
import type { EnvironmentSnapshot } from '@bunting/contracts';
import { createChangedFlags, mergeSnapshot } from './snapshot-merge.ts';

const flag = (name: string, enabled = true) => ({ name, project: 'default', enabled, strategies: [], variants: [] }) as unknown as EnvironmentSnapshot['features'][number];
const snapshot = (features: EnvironmentSnapshot['features'], segments: EnvironmentSnapshot['segments'] = []): EnvironmentSnapshot => ({ environment: 'production', features, segments });

describe('mergeSnapshot', () => {
  const held = snapshot([flag('alpha'), flag('beta'), flag('gamma')], [{ id: 1, name: 'old', constraints: [] }]);

  it('replaces read flags where they stood, drops the ones the read no longer has, and takes the fresh segments', () => {
    const fresh = snapshot([flag('gamma', false)], [{ id: 1, name: 'new', constraints: [] }]);
    const merged = mergeSnapshot(held, fresh, new Set(['beta', 'gamma']));
    expect(merged.features.map((feature) => [feature.name, feature.enabled])).toEqual([['alpha', true], ['gamma', false]]);
    expect(merged.segments).toEqual([{ id: 1, name: 'new', constraints: [] }]);
    expect(held.features).toHaveLength(3);
  });

  it('adds flags the held snapshot does not have where the name order puts them', () => {
    const merged = mergeSnapshot(held, snapshot([flag('zeta'), flag('Alpha'), flag('delta')]), new Set(['zeta', 'Alpha', 'delta', 'beta']));
    expect(merged.features.map((feature) => feature.name)).toEqual(['Alpha', 'alpha', 'delta', 'gamma', 'zeta']);
  });
});

describe('createChangedFlags', () => {
  it('names the flags changed after a sequence, in the environment and everywhere', () => {
    const changed = createChangedFlags();
    changed.flag('production', 'alpha', 5);
    changed.flag(null, 'beta', 7);
    changed.flag('development', 'gamma', 8);
    expect(changed.since('production', 4)).toEqual(new Set(['alpha', 'beta']));
    expect(changed.since('production', 5)).toEqual(new Set(['beta']));
    expect(changed.since('production', 7)).toEqual(new Set());
    expect(changed.since('development', 0)).toEqual(new Set(['beta', 'gamma']));
  });

  it('says everything after an event about more than one flag, until a snapshot covers it', () => {
    const changed = createChangedFlags();
    changed.whole('production', 10);
    changed.whole(null, 20);
    expect(changed.since('production', 9)).toBeNull();
    expect(changed.since('development', 19)).toBeNull();
    expect(changed.since('development', 20)).toEqual(new Set());
    expect(changed.since('production', 20)).toEqual(new Set());
  });

  it('forgets what the held snapshots cover, and everything of environments not held', () => {
    const changed = createChangedFlags();
    changed.flag('production', 'alpha', 5);
    changed.flag('production', 'beta', 9);
    changed.flag('staging', 'gamma', 3);
    changed.flag(null, 'delta', 6);
    changed.forget(new Map([['production', 6], ['development', 2]]));
    // alpha is covered by production's snapshot; delta is still wanted by development's.
    expect(changed.since('production', 0)).toEqual(new Set(['beta', 'delta']));
    expect(changed.since('development', 0)).toEqual(new Set(['delta']));
    expect(changed.since('staging', 0)).toEqual(new Set(['delta']));
    changed.forget(new Map([['production', 9], ['development', 6]]));
    expect(changed.since('development', 0)).toEqual(new Set());
  });
});
