import { describe, expect, it } from 'vitest';
import { cycles } from './module-graph.ts';

describe('finding cycles', () => {
  it('finds each cycle once, and none in a graph that goes one way', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a', 'e'])],
      ['e', new Set<string>()],
      ['f', new Set(['f'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['f']]);
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set<string>()],
        ]),
      ),
    ).toEqual([]);
  });
});
