import { expect, it } from 'vitest';
import { statisticRows } from './statistic-rows.ts';

it('gives each figure a row, nested ones by their path and ranged lists by range', () => {
  expect(
    statisticRows({
      users: 3,
      OIDCenabled: false,
      timestamp: null,
      activeUsers: { last7: 2, last30: 3 },
      clientApps: [
        { range: 'allTime', count: 4 },
        { range: '7d', count: 1 },
      ],
    }),
  ).toEqual([
    ['users', '3'],
    ['OIDCenabled', 'false'],
    ['timestamp', ''],
    ['activeUsers.last7', '2'],
    ['activeUsers.last30', '3'],
    ['clientApps.allTime', '4'],
    ['clientApps.7d', '1'],
  ]);
});
