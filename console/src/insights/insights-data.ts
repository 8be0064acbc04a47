import type { InstanceInsights } from '@bunting/contracts';
import type { ChartData } from '../ui/chart.tsx';

/** The charts of the executive dashboard, from /api/admin/insights: pure shaping, unit-tested. */

const byDate = <T extends { date: string }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => a.date.localeCompare(b.date));

export function flagTrend(insights: InstanceInsights): ChartData {
  const rows = byDate(insights.flagTrends);
  return {
    kind: 'line',
    categories: rows.map((row) => row.date.slice(0, 10)),
    series: [
      { name: 'Total', values: rows.map((row) => row.total) },
      { name: 'Active', values: rows.map((row) => row.active) },
      { name: 'Stale', values: rows.map((row) => row.stale) },
      { name: 'Potentially stale', values: rows.map((row) => row.potentiallyStale) },
    ],
  };
}

export function userTrend(insights: InstanceInsights): ChartData {
  const rows = byDate(insights.userTrends);
  return {
    kind: 'line',
    categories: rows.map((row) => row.date.slice(0, 10)),
    series: [
      { name: 'Total', values: rows.map((row) => row.total) },
      { name: 'Active', values: rows.map((row) => row.active) },
    ],
  };
}

/** Each project's latest week: its health and its average time to production (days). */
export function projectHealth(insights: InstanceInsights): ChartData {
  const latest = new Map<string, InstanceInsights['projectFlagTrends'][number]>();
  for (const row of byDate(insights.projectFlagTrends)) latest.set(row.project, row);
  const projects = [...latest.keys()].sort();
  return {
    kind: 'bar',
    categories: projects,
    series: [
      { name: 'Health (%)', values: projects.map((project) => latest.get(project)!.health) },
      {
        name: 'Time to production (days)',
        values: projects.map((project) => Math.round(latest.get(project)!.timeToProduction * 10) / 10),
      },
    ],
  };
}

/** Configuration changes per week and environment type (production changes among them). */
export function environmentUpdates(insights: InstanceInsights): ChartData {
  const weeks = [...new Set(insights.environmentTypeTrends.map((row) => row.week))].sort();
  const types = [...new Set(insights.environmentTypeTrends.map((row) => row.environmentType))].sort();
  const count = (week: string, type: string) =>
    insights.environmentTypeTrends
      .filter((row) => row.week === week && row.environmentType === type)
      .reduce((sum, row) => sum + row.totalUpdates, 0);
  return {
    kind: 'bar',
    categories: weeks,
    series: types.map((type) => ({ name: type, stack: 'updates', values: weeks.map((week) => count(week, type)) })),
  };
}

/** SDK evaluations per week: exposed (yes) and not (no), all projects together. */
export function sdkMetrics(insights: InstanceInsights): ChartData {
  const weeks = [...new Set(insights.metricsSummaryTrends.map((row) => row.week))].sort();
  const sum = (week: string, field: 'totalYes' | 'totalNo') =>
    insights.metricsSummaryTrends.filter((row) => row.week === week).reduce((total, row) => total + row[field], 0);
  return {
    kind: 'bar',
    categories: weeks,
    series: [
      { name: 'Exposed (yes)', stack: 'evaluations', values: weeks.map((week) => sum(week, 'totalYes')) },
      { name: 'Not exposed (no)', stack: 'evaluations', values: weeks.map((week) => sum(week, 'totalNo')) },
    ],
  };
}
