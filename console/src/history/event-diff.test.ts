import { describe, expect, it } from 'vitest';
import { diffEvent, formatValue } from './event-diff.ts';

describe('diffEvent', () => {
  it('reads a changed parameter at its path', () => {
    const before = { id: 's1', name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default' } };
    const after = { id: 's1', name: 'flexibleRollout', parameters: { rollout: '75', stickiness: 'default' } };
    expect(diffEvent(before, after)).toEqual([
      { kind: 'changed', path: 'parameters.rollout', before: '50', after: '75' },
    ]);
  });

  it('lists values added to and removed from a list, not shifted positions', () => {
    const before = { constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b', 'c'] }] };
    const after = { constraints: [{ contextName: 'userId', operator: 'IN', values: ['b', 'c', 'd'] }] };
    expect(diffEvent(before, after)).toEqual([
      { kind: 'items', path: 'constraints[0].values', added: ['d'], removed: ['a'] },
    ]);
  });

  it('matches strategies by id and variants by name', () => {
    const before = {
      strategies: [
        { id: 'x', name: 'default', disabled: false },
        { id: 'y', name: 'userWithId' },
      ],
    };
    const after = {
      strategies: [
        { id: 'y', name: 'userWithId' },
        { id: 'x', name: 'default', disabled: true },
        { id: 'z', name: 'remoteAddress' },
      ],
    };
    expect(diffEvent(before, after)).toEqual([
      { kind: 'changed', path: 'strategies[default x].disabled', before: false, after: true },
      { kind: 'added', path: 'strategies[remoteAddress z]', after: { id: 'z', name: 'remoteAddress' } },
    ]);
    expect(
      diffEvent({ variants: [{ name: 'blue', weight: 500 }] }, { variants: [{ name: 'blue', weight: 1000 }] }),
    ).toEqual([{ kind: 'changed', path: 'variants[blue].weight', before: 500, after: 1000 }]);
  });

  it('lists what a creation set and what a deletion removed', () => {
    expect(diffEvent(null, { name: 'checkout', enabled: false })).toEqual([
      { kind: 'added', path: 'name', after: 'checkout' },
      { kind: 'added', path: 'enabled', after: false },
    ]);
    expect(diffEvent({ name: 'checkout' }, null)).toEqual([{ kind: 'removed', path: 'name', before: 'checkout' }]);
  });

  it('opens up what a creation set: parameters field by field, constraint values as items', () => {
    const strategy = {
      id: 's1',
      name: 'flexibleRollout',
      segments: [],
      parameters: { rollout: '50', groupId: 'g' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }],
    };
    expect(diffEvent(null, strategy)).toEqual([
      { kind: 'added', path: 'id', after: 's1' },
      { kind: 'added', path: 'name', after: 'flexibleRollout' },
      { kind: 'added', path: 'segments', after: [] },
      { kind: 'added', path: 'parameters.rollout', after: '50' },
      { kind: 'added', path: 'parameters.groupId', after: 'g' },
      { kind: 'added', path: 'constraints[0].contextName', after: 'userId' },
      { kind: 'added', path: 'constraints[0].operator', after: 'IN' },
      { kind: 'items', path: 'constraints[0].values', added: ['a', 'b'], removed: [] },
    ]);
  });

  it('finds nothing when nothing changed', () => {
    expect(diffEvent({ a: [1, 2], b: { c: null } }, { a: [1, 2], b: { c: null } })).toEqual([]);
    expect(diffEvent(null, null)).toEqual([]);
  });

  it('reports a reordered list of values as changed', () => {
    expect(diffEvent({ order: ['a', 'b'] }, { order: ['b', 'a'] })).toEqual([
      { kind: 'changed', path: 'order', before: ['a', 'b'], after: ['b', 'a'] },
    ]);
  });
});

describe('formatValue', () => {
  it('shows strings as they are and shortens long values', () => {
    expect(formatValue('50')).toBe('50');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
    expect(formatValue('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
