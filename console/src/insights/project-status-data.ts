import type { AnswerOf } from '../api/endpoint.ts';
import type { ChartData } from '../ui/chart.tsx';

type LifecycleSummary = AnswerOf<'/api/admin/projects/{projectId}/status'>['lifecycleSummary'];

/** Changes per day over the last `days` days ending `today`, days without any at zero. */
export function activityByDay(activity: readonly { date: string; count: number }[], today: Date, days = 30): ChartData {
  const counts = new Map(activity.map((entry) => [entry.date, entry.count]));
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const dates = Array.from({ length: days }, (_, index) =>
    new Date(end - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
  return {
    kind: 'bar',
    categories: dates,
    series: [{ name: 'Changes', values: dates.map((date) => counts.get(date) ?? 0) }],
  };
}

/** Lifecycle stages in the order a flag goes through them, with Unleash's names. */
export const STAGE_ORDER: readonly [keyof LifecycleSummary, string][] = [
  ['initial', 'Define'],
  ['preLive', 'Develop'],
  ['live', 'Production'],
  ['completed', 'Cleanup'],
  ['archived', 'Archived'],
];
