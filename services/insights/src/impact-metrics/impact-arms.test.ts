import { describe, expect, it } from 'vitest';
import { squaresFromBuckets } from './impact-arms.ts';

describe("a histogram's sum of squares from its buckets", () => {
  it('takes each observation at its bucket midpoint, from zero for the first and at its bound for the open last', () => {
    // Cumulative: 2 at most 0.1, 5 at most 0.5, 6 in all.
    const squares = squaresFromBuckets([0.1, 0.5, Number.POSITIVE_INFINITY], [2, 5, 6]);
    expect(squares).toBeCloseTo(2 * 0.05 ** 2 + 3 * 0.3 ** 2 + 1 * 0.5 ** 2, 12);
  });

  it('is zero for a histogram with nothing observed', () => {
    expect(squaresFromBuckets([1, 2], [0, 0])).toBe(0);
  });
});
