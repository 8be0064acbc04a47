import { describe, expect, it } from 'vitest';
import type { EnvironmentSnapshot } from '@bunting/contracts';
import { mergeSnapshot } from './snapshot-merge.ts';
import { createCopyEncoder, type Stored } from './stored-copy.ts';

type Feature = EnvironmentSnapshot['features'][number];
const flag = (name: string, enabled: boolean, extra: Partial<Feature> = {}) =>
  ({ name, project: 'default', enabled, strategies: [{ name: 'default', constraints: [], parameters: {} }], variants: [], ...extra }) as unknown as Feature;

describe('createCopyEncoder', () => {
  it('encodes each revision of a run of patches as JSON.stringify does (the same JSON, keys in another order)', () => {
    const encode = createCopyEncoder();
    let snapshot: EnvironmentSnapshot = {
      environment: 'production',
      features: Array.from({ length: 50 }, (_, index) => flag(`flag-${String(index).padStart(2, '0')}`, index % 2 === 0)),
      segments: [{ id: 1, name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] } as never],
    };
    const other: Stored = { revision: 9, coveredSeq: 90, snapshot: { environment: 'development', features: [flag('flag-00', false)], segments: [] } };
    let revision = 1;
    const check = (stored: Stored) => expect(JSON.parse(encode(stored))).toStrictEqual(JSON.parse(JSON.stringify(stored)));
    check({ revision, coveredSeq: 10, snapshot });
    for (let round = 0; round < 120; round += 1) {
      // Each round reads one flag again (changed, removed or new) and sometimes another environment is encoded between.
      const name = `flag-${String((round * 7) % 60).padStart(2, '0')}`;
      const fresh = round % 5 === 4 ? [] : [flag(name, round % 2 === 0, round % 3 === 0 ? { description: `"quoted" ${round}`, impressionData: true } as never : {})];
      snapshot = mergeSnapshot(snapshot, { environment: 'production', features: fresh, segments: snapshot.segments }, new Set([name]));
      revision += 1;
      check({ revision, coveredSeq: 10 + round, snapshot, changed: { from: revision - 1, features: [name] } });
      if (round % 10 === 0) check(other);
    }
    // A snapshot with no flags, and one read whole (every object new).
    check({ revision: revision + 1, coveredSeq: 500, snapshot: { ...snapshot, features: [] } });
    check({ revision: revision + 2, coveredSeq: 501, snapshot: JSON.parse(JSON.stringify(snapshot)) as EnvironmentSnapshot });
  });
});
