import { describe, expect, it } from 'vitest';
import { exposuresByHour, lastHours } from './flag-metrics-data.ts';

describe("a flag's exposures per hour", () => {
  it('lists the last hours oldest first, ending with the current one', () => {
    const hours = lastHours(new Date('2026-11-24T08:42:10Z'), 3);
    expect(hours).toEqual(['2026-11-24 06:00', '2026-11-24 07:00', '2026-11-24 08:00']);
    expect(lastHours(new Date('2026-11-24T08:00:00Z'))).toHaveLength(48);
  });

  it('sums every application of the chosen environment per hour, and leaves hours without reports at zero', () => {
    const rows = [
      { environment: 'production', appName: 'web', timestamp: '2026-11-24T08:00:00.000Z', yes: 5, no: 1 },
      { environment: 'production', appName: 'api', timestamp: '2026-11-24T08:00:00.000Z', yes: 2, no: 0 },
      { environment: 'development', appName: 'web', timestamp: '2026-11-24T08:00:00.000Z', yes: 100, no: 100 },
      { environment: 'production', appName: 'web', timestamp: '2026-11-24T06:00:00.000Z', yes: 0, no: 3 },
    ];
    const chart = exposuresByHour(rows, 'production', ['2026-11-24 06:00', '2026-11-24 07:00', '2026-11-24 08:00']);
    expect(chart.series).toEqual([
      { name: 'Exposed (yes)', values: [0, 0, 7], stack: 'answers' },
      { name: 'Not exposed (no)', values: [3, 0, 1], stack: 'answers' },
    ]);
  });
});
