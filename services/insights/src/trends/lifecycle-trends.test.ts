import { describe, expect, it } from 'vitest';
import type { Inventory } from '@bunting/contracts';
import { lifecycleTrends } from './lifecycle-trends.ts';

describe('lifecycleTrends', () => {
  it('groups stages, sorts flag types into kinds and averages the days in stage', () => {
    const inventory = {
      lifecycle: [
        { stage: 'initial', type: 'release', total: 2, olderThanWeek: 1, newThisWeek: 1, totalDays: 10 },
        { stage: 'pre-live', type: 'experiment', total: 1, olderThanWeek: 0, newThisWeek: 1, totalDays: 2 },
        { stage: 'live', type: 'kill-switch', total: 4, olderThanWeek: 4, newThisWeek: 0, totalDays: 100 },
        { stage: 'completed', type: 'operational', total: 1, olderThanWeek: 1, newThisWeek: 0, totalDays: 30 },
      ],
    } as unknown as Inventory;
    const { lifecycleTrends: trends } = lifecycleTrends(inventory);
    expect(trends.develop).toEqual({
      totalFlags: 3,
      averageDays: 4,
      categories: {
        experimental: { flagsOlderThanWeek: 0, newFlagsThisWeek: 1 },
        release: { flagsOlderThanWeek: 1, newFlagsThisWeek: 1 },
        permanent: { flagsOlderThanWeek: 0, newFlagsThisWeek: 0 },
      },
    });
    expect(trends.production).toMatchObject({
      totalFlags: 4,
      averageDays: 25,
      categories: { permanent: { flagsOlderThanWeek: 4 } },
    });
    expect(trends.cleanup).toMatchObject({ totalFlags: 1, averageDays: 30 });
  });
});
