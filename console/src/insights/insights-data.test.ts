import { describe, expect, it } from 'vitest';
import type { InstanceInsights } from '@bunting/contracts';
import { environmentUpdates, flagTrend, projectHealth, sdkMetrics } from './insights-data.ts';

const insights: InstanceInsights = {
  userTrends: [],
  flagTrends: [
    { date: '2026-11-02T00:00:00Z', total: 5, active: 4, stale: 1, potentiallyStale: 0 },
    { date: '2026-11-01T00:00:00Z', total: 3, active: 3, stale: 0, potentiallyStale: 0 },
  ],
  projectFlagTrends: [
    {
      week: '2026-44',
      project: 'web',
      health: 80,
      timeToProduction: 1.26,
      date: '2026-11-01',
      total: 5,
      active: 4,
      stale: 1,
      potentiallyStale: 0,
      users: 2,
    },
    {
      week: '2026-45',
      project: 'web',
      health: 60,
      timeToProduction: 2,
      date: '2026-11-08',
      total: 5,
      active: 3,
      stale: 2,
      potentiallyStale: 0,
      users: 2,
    },
  ],
  metricsSummaryTrends: [
    {
      week: '2026-45',
      date: '2026-11-08',
      project: 'web',
      totalRequests: 10,
      totalYes: 7,
      totalNo: 3,
      totalApps: 1,
      totalFlags: 2,
      totalEnvironments: 1,
    },
    {
      week: '2026-45',
      date: '2026-11-08',
      project: 'api',
      totalRequests: 2,
      totalYes: 1,
      totalNo: 1,
      totalApps: 1,
      totalFlags: 1,
      totalEnvironments: 1,
    },
  ],
  environmentTypeTrends: [
    { date: '2026-11-08', week: '2026-45', environmentType: 'production', totalUpdates: 4 },
    { date: '2026-11-08', week: '2026-45', environmentType: 'development', totalUpdates: 9 },
  ],
};

describe('the executive dashboard charts', () => {
  it('put trends in date order', () => {
    expect(flagTrend(insights)).toMatchObject({
      categories: ['2026-11-01', '2026-11-02'],
      series: [{ name: 'Total', values: [3, 5] }, { values: [3, 4] }, { values: [0, 1] }, { values: [0, 0] }],
    });
  });

  it('show each project at its latest week, and sum weeks across projects', () => {
    expect(projectHealth(insights)).toMatchObject({ categories: ['web'], series: [{ values: [60] }, { values: [2] }] });
    expect(sdkMetrics(insights).series.map((series) => series.values)).toEqual([[8], [4]]);
    expect(environmentUpdates(insights)).toMatchObject({
      categories: ['2026-45'],
      series: [
        { name: 'development', values: [9] },
        { name: 'production', values: [4] },
      ],
    });
  });
});
