import type { ChartData } from '../ui/chart.tsx';

type Answer = { series: readonly { metric: Record<string, string>; data: readonly (readonly [number, string])[] }[] };
type Range = 'hour' | 'day' | 'week' | 'month';

const TIME: Record<Range, Intl.DateTimeFormatOptions> = {
  hour: { hour: '2-digit', minute: '2-digit' },
  day: { hour: '2-digit', minute: '2-digit' },
  week: { month: 'short', day: 'numeric', hour: '2-digit' },
  month: { month: 'short', day: 'numeric' },
};

/** A point's time as the range's axis shows it: minutes within a day, days within a month. */
export const pointTime = (seconds: number, range: Range, timeZone?: string) =>
  new Intl.DateTimeFormat('en-GB', { ...TIME[range], ...(timeZone ? { timeZone } : {}) }).format(
    new Date(seconds * 1000),
  );

/** A series' name: its labels other than the metric's own, or the name given. */
const seriesName = (metric: Record<string, string>, fallback: string) => {
  const labels = Object.entries(metric)
    .filter(([name]) => name !== '__name__')
    .map(([name, value]) => `${name}=${value}`);
  return labels.length > 0 ? `${fallback} (${labels.join(', ')})` : fallback;
};

/**
 * An impact metrics answer as a line chart: one category per point in time (every series' times together), each
 * series' value there, or none where it has no point.
 */
export function impactChartData(
  answer: Answer,
  range: Range,
  options: { name: string; yAxisMin?: 'zero' | 'auto'; threshold?: number; timeZone?: string },
): ChartData {
  const times = [...new Set(answer.series.flatMap((series) => series.data.map(([time]) => time)))].sort(
    (a, b) => a - b,
  );
  return {
    kind: 'line',
    categories: times.map((time) => pointTime(time, range, options.timeZone)),
    series: answer.series.map((series) => {
      const byTime = new Map(series.data.map(([time, value]) => [time, Number(value)]));
      return {
        name: seriesName(series.metric, options.name),
        values: times.map((time) => byTime.get(time) ?? Number.NaN),
      };
    }),
    ...(options.yAxisMin ? { yAxisMin: options.yAxisMin } : {}),
    ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
  };
}

/** What each type of metric can be aggregated as, the first the default (as Unleash picks it). */
export const AGGREGATIONS_OF: Record<string, readonly { value: string; label: string }[]> = {
  counter: [
    { value: 'count', label: 'Count per step' },
    { value: 'rps', label: 'Per second' },
    { value: 'avg', label: 'Mean per series' },
  ],
  gauge: [
    { value: 'avg', label: 'Mean' },
    { value: 'sum', label: 'Sum' },
    { value: 'count', label: 'Series reporting' },
  ],
  histogram: [
    { value: 'p50', label: 'Median (p50)' },
    { value: 'p95', label: 'p95' },
    { value: 'p99', label: 'p99' },
    { value: 'avg', label: 'Mean' },
    { value: 'count', label: 'Observations' },
    { value: 'rps', label: 'Observations per second' },
  ],
  unknown: [
    { value: 'avg', label: 'Mean' },
    { value: 'sum', label: 'Sum' },
  ],
};
