import { describe, expect, it } from 'vitest';
import { healthRating } from './project-health.ts';

describe('healthRating', () => {
  it('is 100 for a project without flags or with only healthy ones', () => {
    expect(healthRating({ total: 0, stale: 0, potentiallyStale: 0 })).toBe(100);
    expect(healthRating({ total: 7, stale: 0, potentiallyStale: 0 })).toBe(100);
  });

  it('loses the share of stale and of potentially stale flags, rounded', () => {
    expect(healthRating({ total: 4, stale: 1, potentiallyStale: 0 })).toBe(75);
    expect(healthRating({ total: 4, stale: 1, potentiallyStale: 1 })).toBe(50);
    expect(healthRating({ total: 3, stale: 1, potentiallyStale: 0 })).toBe(67);
    expect(healthRating({ total: 2, stale: 2, potentiallyStale: 0 })).toBe(0);
  });
});
