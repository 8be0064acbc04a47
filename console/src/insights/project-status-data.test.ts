import { expect, it } from 'vitest';
import { activityByDay } from './project-status-data.ts';

it('counts changes per day over the window, days without any at zero', () => {
  const chart = activityByDay(
    [
      { date: '2026-11-22', count: 4 },
      { date: '2026-11-24', count: 1 },
      { date: '2026-10-01', count: 9 },
    ],
    new Date('2026-11-24T12:00:00Z'),
    3,
  );
  expect(chart.categories).toEqual(['2026-11-22', '2026-11-23', '2026-11-24']);
  expect(chart.series[0]!.values).toEqual([4, 0, 1]);
});
