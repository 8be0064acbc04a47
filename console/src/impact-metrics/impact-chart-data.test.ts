import { describe, expect, it } from 'vitest';
import { impactChartData, pointTime } from './impact-chart-data.ts';

describe('impactChartData', () => {
  it('puts every point time on the axis and leaves a gap where a series has none', () => {
    const data = impactChartData(
      {
        series: [
          {
            metric: { __name__: 'unleash_counter_errors', appName: 'shop' },
            data: [
              [1_800_000_000, '2'],
              [1_800_000_060, '0.5'],
            ],
          },
        ],
      },
      'hour',
      { name: 'errors', threshold: 1, yAxisMin: 'zero', timeZone: 'UTC' },
    );
    expect(data).toEqual({
      kind: 'line',
      categories: [pointTime(1_800_000_000, 'hour', 'UTC'), pointTime(1_800_000_060, 'hour', 'UTC')],
      series: [{ name: 'errors (appName=shop)', values: [2, 0.5] }],
      threshold: 1,
      yAxisMin: 'zero',
    });
    expect(pointTime(1_800_000_000, 'hour', 'UTC')).toBe('08:00');
    expect(pointTime(1_800_000_000, 'month', 'UTC')).toBe('15 Jan');
  });
});
