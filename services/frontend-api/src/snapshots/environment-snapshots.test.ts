import { describe, expect, it } from 'vitest';
import { createLogger } from '@bunting/platform';
import { createEnvironmentSnapshots, type EnvironmentSnapshots } from './environment-snapshots.ts';
import { featureSetOf } from './feature-set.ts';

const flag = (name: string, enabled = true) => ({
  name,
  enabled,
  project: 'default',
  strategies: [{ name: 'default' }],
});
const setOf = (...flags: ReturnType<typeof flag>[]) => featureSetOf({ features: flags });

function store(): EnvironmentSnapshots {
  return createEnvironmentSnapshots({
    hostname: 'test',
    log: createLogger('silent', 'test'),
    request: () => false,
    waitMs: 0,
  });
}

/** The revision installed once the sets put in this turn are merged and compiled. */
function installed(snapshots: EnvironmentSnapshots): Promise<number> {
  return new Promise((resolve) => {
    const stop = snapshots.subscribe('production', (compiled) => {
      stop();
      resolve(compiled.revision);
    });
  });
}

const changed = (snapshots: EnvironmentSnapshots, since: number) =>
  [...(snapshots.changesSince('production', since)?.features.keys() ?? [])].sort();
const enabled = (snapshots: EnvironmentSnapshots, name: string) =>
  snapshots.current('production')?.snapshot.features.find((feature) => feature.name === name)?.enabled;

describe("an environment's snapshots fed by deltas that name their flags", () => {
  it('records the flags a delta named as the change', async () => {
    const snapshots = store();
    const first = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('a'), flag('b')));
    const start = await first;
    const next = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('a'), flag('b', false)), { how: 'delta', changed: ['b'] });
    await next;
    expect(changed(snapshots, start)).toEqual(['b']);
    expect(enabled(snapshots, 'b')).toBe(false);
  });

  it('also compares the flags another source holds, which the delta source now decides', async () => {
    const snapshots = store();
    let next = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('x'), flag('y', true)));
    await next;
    next = installed(snapshots);
    // A narrower scope, updated last, still holds y as it was before a change its feed has not brought yet.
    snapshots.put('production', 'web', setOf(flag('y', false)));
    const start = await next;
    expect(enabled(snapshots, 'y')).toBe(false);
    next = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('x', false), flag('y', true)), { how: 'delta', changed: ['x'] });
    await next;
    expect(enabled(snapshots, 'y')).toBe(true);
    expect(changed(snapshots, start)).toEqual(['x', 'y']);
  });

  it('compares every flag after a source left, whose flags no delta names', async () => {
    const snapshots = store();
    let next = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('x')));
    snapshots.put('production', 'web', setOf(flag('z')));
    const start = await next;
    snapshots.drop('production', 'web');
    next = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('x', false)), { how: 'delta', changed: ['x'] });
    await next;
    expect(changed(snapshots, start)).toEqual(['x', 'z']);
    expect(enabled(snapshots, 'z')).toBeUndefined();
  });

  it('compares the named flags against a snapshot kept from before a restart', async () => {
    const snapshots = store();
    const kept = { environment: 'production', features: [flag('a'), flag('b')], segments: [] };
    snapshots.restore({ environment: 'production', revision: 7, read: async () => ({ snapshot: kept }) });
    const restored = installed(snapshots);
    expect((await snapshots.ensure('production')).revision).toBe(7);
    expect(await restored).toBe(7);
    const next = installed(snapshots);
    snapshots.put('production', 'all', setOf(flag('a'), flag('b', false)), { how: 'delta', changed: ['a', 'b'] });
    expect(await next).toBe(8);
    // Named but as it was: not a change.
    expect(changed(snapshots, 7)).toEqual(['b']);
  });
});
