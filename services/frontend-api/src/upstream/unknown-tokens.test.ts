import { describe, expect, it } from 'vitest';
import { unknownTokenPolicy } from './unknown-tokens.ts';

describe('unknown tokens at the edge', () => {
  it('asks about each at most once an interval, and at most so many a second in all', () => {
    const policy = unknownTokenPolicy({ intervalMs: 60_000, perSecond: 3 });
    const start = 1_000_000;
    expect(['a', 'b', 'c', 'd'].map((secret) => policy.mayAsk(secret, start))).toEqual([
      'ask',
      'ask',
      'ask',
      'over-budget',
    ]);
    for (const secret of ['a', 'b', 'c']) policy.unknown(secret, start);
    // The next second has a new budget; those the upstream refused are not asked again within the interval.
    expect(['a', 'd', 'e'].map((secret) => policy.mayAsk(secret, start + 1_000))).toEqual([
      'known-unknown',
      'ask',
      'ask',
    ]);
    expect(policy.mayAsk('a', start + 59_999)).toBe('known-unknown');
    expect(policy.mayAsk('a', start + 60_000)).toBe('ask');
  });
});
