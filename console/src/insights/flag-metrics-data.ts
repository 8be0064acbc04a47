import type { ChartData } from '../ui/chart.tsx';

/** An hour of a flag's metrics from one application in one environment, as far as the charts read it. */
export type MetricRow = { environment: string; appName: string; timestamp: string; yes: number; no: number };

export const HOURS = 48;

/** The last 48 hours, oldest first, as `YYYY-MM-DD HH:00` in UTC (the hours metrics are kept in). */
export function lastHours(now: Date, count = HOURS): string[] {
  const top = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours());
  return Array.from(
    { length: count },
    (_, index) => new Date(top - (count - 1 - index) * 3_600_000).toISOString().slice(0, 13).replace('T', ' ') + ':00',
  );
}

/** Exposures per hour in one environment, every application summed, as a stacked bar chart's data. */
export function exposuresByHour(rows: readonly MetricRow[], environment: string, hours: readonly string[]): ChartData {
  const yes = new Map<string, number>();
  const no = new Map<string, number>();
  for (const row of rows.filter((candidate) => candidate.environment === environment)) {
    const hour = row.timestamp.slice(0, 13).replace('T', ' ') + ':00';
    yes.set(hour, (yes.get(hour) ?? 0) + row.yes);
    no.set(hour, (no.get(hour) ?? 0) + row.no);
  }
  return {
    kind: 'bar',
    categories: hours,
    series: [
      { name: 'Exposed (yes)', values: hours.map((hour) => yes.get(hour) ?? 0), stack: 'answers' },
      { name: 'Not exposed (no)', values: hours.map((hour) => no.get(hour) ?? 0), stack: 'answers' },
    ],
  };
}
