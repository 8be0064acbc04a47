import { describe, expect, it } from 'vitest';
import { applyDelta, createSseParser, featureSetOf, keepUnchanged, mergeSets } from './feature-set.ts';

const flag = (name: string, enabled = true, project?: string) => ({
  name,
  enabled,
  ...(project ? { project } : {}),
  strategies: [{ name: 'default' }],
});

describe("a scope's feature set", () => {
  it('takes a features answer, giving a flag without a project the default one', () => {
    const set = featureSetOf({
      features: [flag('a'), flag('b', false, 'web')],
      segments: [{ id: 1, constraints: [] }],
    });
    expect(set.features.get('a')?.project).toBe('default');
    expect(set.features.get('b')?.project).toBe('web');
    expect([...set.segments.keys()]).toEqual([1]);
  });

  it('applies delta events in order and leaves the set it was given as it was', () => {
    const start = featureSetOf({ features: [flag('a'), flag('b')], segments: [{ id: 1, constraints: [] }] });
    const next = applyDelta(start, [
      { type: 'segment-updated', eventId: 2, segment: { id: 2, constraints: [] } },
      { type: 'feature-updated', eventId: 2, feature: flag('c') },
      { type: 'feature-removed', eventId: 2, featureName: 'a', project: 'default' },
      { type: 'segment-removed', eventId: 2, segmentId: 1 },
    ])!;
    expect([...next.features.keys()].sort()).toEqual(['b', 'c']);
    expect([...next.segments.keys()]).toEqual([2]);
    expect([...start.features.keys()].sort()).toEqual(['a', 'b']);
  });

  it('starts anew at a hydration, and cannot apply changes to nothing', () => {
    expect(applyDelta(undefined, [{ type: 'feature-updated', eventId: 1, feature: flag('x') }])).toBeUndefined();
    const hydrated = applyDelta(undefined, [
      { type: 'hydration', eventId: 1, features: [flag('x')], segments: [] },
      { type: 'feature-updated', eventId: 1, feature: flag('y') },
    ])!;
    expect([...hydrated.features.keys()]).toEqual(['x', 'y']);
  });

  it('keeps the objects of flags that did not change, so what was compiled for them is lent on', () => {
    const before = featureSetOf({ features: [flag('same'), flag('changed')] });
    const after = keepUnchanged(before, featureSetOf({ features: [flag('same'), flag('changed', false)] }));
    expect(after.features.get('same')).toBe(before.features.get('same'));
    expect(after.features.get('changed')).not.toBe(before.features.get('changed'));
    expect(after.features.get('changed')?.enabled).toBe(false);
  });

  it('merges the scopes of an environment, the set updated last winning a flag both hold', () => {
    const web = featureSetOf({ features: [flag('shared', false, 'web'), flag('web-only', true, 'web')] });
    const all = featureSetOf({ features: [flag('shared', true, 'web'), flag('api-only', true, 'api')] });
    const { snapshot: merged, byName } = mergeSets('production', [
      { set: all, updatedAt: 2 },
      { set: web, updatedAt: 1 },
    ]);
    expect([...byName.keys()].sort()).toEqual(['api-only', 'shared', 'web-only']);
    expect(byName.get('shared')).toBe(merged.features.find((feature) => feature.name === 'shared'));
    expect(merged.environment).toBe('production');
    expect(merged.features.map((feature) => feature.name).sort()).toEqual(['api-only', 'shared', 'web-only']);
    expect(merged.features.find((feature) => feature.name === 'shared')?.enabled).toBe(true);
  });
});

describe('the server-sent event parser', () => {
  it('cuts events wherever the text breaks, joins data lines and skips comments', () => {
    const parse = createSseParser();
    expect(parse(': keep-alive\n\nevent: unleash-conn')).toEqual([]);
    expect(parse('ected\nid: 7\ndata: {"a":\ndata: 1}\n\nevent: unleash-updated\r\n')).toEqual([
      { event: 'unleash-connected', id: '7', data: '{"a":\n1}' },
    ]);
    expect(parse('data: x\r\n\r\n')).toEqual([{ event: 'unleash-updated', id: undefined, data: 'x' }]);
  });
});
