import { Text } from '@mantine/core';
import { Chart } from '../ui/chart.tsx';
import { Failed, Loading } from '../ui/states.tsx';
import { impactChartData } from './impact-chart-data.ts';
import { queryOf, type ImpactSelection } from './impact-controls.tsx';
import { useImpactData } from './impact-queries.ts';

/** An impact metric drawn over its range (and its numbers in a table for screen readers), asked again as time passes. */
export function ImpactChartView({
  title,
  selection,
  yAxisMin,
  threshold,
}: {
  title: string;
  selection: ImpactSelection;
  yAxisMin?: 'zero' | 'auto';
  threshold?: number;
}) {
  const data = useImpactData(selection.metricName ? { ...queryOf(selection), mode: 'display' } : null);
  if (!selection.metricName)
    return (
      <Text c="dimmed" size="sm">
        Choose a metric to draw.
      </Text>
    );
  if (data.isPending) return <Loading label={`Loading ${title}`} />;
  if (data.isError) return <Failed error={data.error} title={`${title} cannot be drawn`} />;
  return (
    <Chart
      title={title}
      empty="No values in this range yet."
      data={impactChartData(data.data, selection.timeRange, {
        name: title,
        ...(yAxisMin ? { yAxisMin } : {}),
        ...(threshold !== undefined ? { threshold } : {}),
      })}
    />
  );
}
