import { describe, expect, it } from 'vitest';
import type { EnvironmentSnapshot } from '@bunting/contracts';
import { createRevisionHistory, diffSnapshots } from './revision-changes.ts';

const flag = (name: string, enabled: boolean, project = 'default') => ({ name, enabled, project, strategies: [] });
const snapshot = (
  features: EnvironmentSnapshot['features'],
  segments: EnvironmentSnapshot['segments'] = [],
): EnvironmentSnapshot => ({ environment: 'development', features, segments });

describe('diffSnapshots', () => {
  it('names added, changed and removed flags and segments, and nothing else', () => {
    const before = snapshot(
      [flag('same', true), flag('changed', false), flag('gone', true, 'web')],
      [
        { id: 1, constraints: [] },
        { id: 2, constraints: [] },
      ],
    );
    const after = snapshot(
      [flag('same', true), flag('changed', true), flag('new', true)],
      [
        { id: 1, constraints: [] },
        { id: 3, constraints: [] },
      ],
    );
    const change = diffSnapshots(before, after, 4, 5);
    expect([...change.features]).toEqual([
      ['changed', 'default'],
      ['new', 'default'],
      ['gone', 'web'],
    ]);
    expect([...change.segments].sort()).toEqual([2, 3]);
  });
});

describe('revision history', () => {
  const change = (from: number, to: number, name: string) => ({
    from,
    to,
    features: new Map([[name, 'default']]),
    segments: new Set<number>(),
  });

  it('merges an unbroken chain, and knows nothing across a gap or from an unknown revision', () => {
    const history = createRevisionHistory();
    history.record('development', change(1, 2, 'a'));
    history.record('development', change(2, 4, 'b'));
    history.record('development', change(4, 5, 'a'));
    expect([...history.since('development', 1, 5)!.features.keys()]).toEqual(['a', 'b']);
    expect([...history.since('development', 4, 5)!.features.keys()]).toEqual(['a']);
    expect(history.since('development', 5, 5)!.features.size).toBe(0);
    expect(history.since('development', 3, 5)).toBeNull();
    expect(history.since('production', 1, 5)).toBeNull();
    history.record('development', change(7, 8, 'c'));
    expect(history.since('development', 1, 8)).toBeNull();
  });
});
