import { describe, expect, it } from 'vitest';
import type { Feature, FeatureStrategy } from '@bunting/contracts';
import { previewChange } from './change-preview.ts';

const rollout = (id: string, percent: string, extra: Partial<FeatureStrategy> = {}): FeatureStrategy => ({
  id,
  name: 'flexibleRollout',
  title: null,
  disabled: false,
  featureName: 'checkout',
  sortOrder: 0,
  segments: [],
  constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], inverted: false, caseInsensitive: false }],
  parameters: { rollout: percent, stickiness: 'default', groupId: 'checkout' },
  variants: [],
  ...extra,
});

const flag = {
  name: 'checkout',
  archived: false,
  dependencies: [{ feature: 'parent', enabled: true, variants: [] }],
  environments: [
    {
      name: 'production',
      enabled: false,
      strategies: [rollout('s1', '10'), rollout('s2', '50', { title: 'Beta' })],
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    },
    { name: 'development', enabled: true, strategies: [], variants: [] },
  ],
} as unknown as Feature;

describe('previewChange', () => {
  it('compares a switch with the environment it is for', () => {
    expect(previewChange('updateEnabled', { enabled: true }, flag, 'production')).toEqual({
      summary: 'Turn on',
      changes: [{ kind: 'changed', path: 'enabled', before: false, after: true }],
    });
    expect(previewChange('updateEnabled', { enabled: true }, flag, 'development').changes).toEqual([]);
  });

  it('shows only what an edited strategy changes, a constraint written without its defaults reading as stored', () => {
    const edited = {
      id: 's1',
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'default', groupId: 'checkout' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'] }],
    };
    expect(previewChange('updateStrategy', edited, flag, 'production').changes).toEqual([
      { kind: 'changed', path: 'parameters.rollout', before: '10', after: '25' },
      { kind: 'items', path: 'constraints[0].values', added: ['us'], removed: [] },
    ]);
  });

  it('names the strategy a deletion removes and lists what it did', () => {
    const preview = previewChange('deleteStrategy', { id: 's2' }, flag, 'production');
    expect(preview.summary).toBe('Remove the strategy Beta (flexibleRollout)');
    expect(preview.changes).toContainEqual({ kind: 'removed', path: 'parameters.rollout', before: '50' });
  });

  it("reads a new order by the strategies' names", () => {
    expect(
      previewChange(
        'reorderStrategy',
        [
          { id: 's2', sortOrder: 0 },
          { id: 's1', sortOrder: 1 },
        ],
        flag,
        'production',
      ).changes,
    ).toEqual([
      {
        kind: 'changed',
        path: 'order',
        before: ['flexibleRollout', 'Beta (flexibleRollout)'],
        after: ['Beta (flexibleRollout)', 'flexibleRollout'],
      },
    ]);
  });

  it('diffs variants, dependencies and archiving against the flag', () => {
    const variants = previewChange(
      'patchVariant',
      {
        variants: [
          { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
          { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' },
        ],
      },
      flag,
      'production',
    );
    expect(variants.changes).toEqual([
      { kind: 'changed', path: 'variants[blue].weight', before: 1000, after: 500 },
      {
        kind: 'added',
        path: 'variants[red]',
        after: { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' },
      },
    ]);
    expect(previewChange('deleteDependency', undefined, flag, 'production').changes).toContainEqual({
      kind: 'removed',
      path: 'dependencies[0].feature',
      before: 'parent',
    });
    expect(previewChange('archiveFeature', undefined, flag, 'production').changes).toEqual([
      { kind: 'changed', path: 'archived', before: false, after: true },
    ]);
  });

  it('lists what a change sets when there is no flag to compare with (loading, or the request is closed)', () => {
    expect(previewChange('updateEnabled', { enabled: false }, undefined, 'production').changes).toEqual([
      { kind: 'added', path: 'enabled', after: false },
    ]);
    expect(previewChange('addStrategy', { name: 'default' }, undefined, 'production').summary).toBe(
      'Add the strategy default',
    );
  });
});
