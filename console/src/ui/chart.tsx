import { Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

// Only the pieces these charts use, so the insights page's chunk stays small.
use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, MarkLineComponent, SVGRenderer]);

export type Series = { name: string; values: readonly number[]; stack?: string };
export type ChartData = {
  kind: 'line' | 'bar';
  categories: readonly string[];
  series: readonly Series[];
  unit?: string;
  /** A horizontal line drawn across (a safeguard's threshold). */
  threshold?: number;
  /** Whether the value axis starts at zero (the default) or fits the values. */
  yAxisMin?: 'zero' | 'auto';
};

const PALETTE = ['#364fc7', '#2f9e44', '#e8590c', '#ae3ec9', '#0c8599', '#c92a2a'];

/** A round number a little above the value, so a line at the value sits inside the chart. */
function niceAbove(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return Math.ceil((value * 1.1) / magnitude) * magnitude;
}

function optionOf(data: ChartData): EChartsCoreOption {
  return {
    color: PALETTE,
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 48, right: 16, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: [...data.categories] },
    yAxis: {
      type: 'value',
      scale: data.yAxisMin === 'auto',
      ...(data.unit ? { name: data.unit } : {}),
      // A threshold above every value would be drawn off the chart: the axis reaches past it.
      ...(data.threshold !== undefined
        ? { max: (extent: { max: number }) => niceAbove(Math.max(extent.max, data.threshold!)) }
        : {}),
    },
    series: data.series.map((series, index) => ({
      type: data.kind,
      name: series.name,
      data: [...series.values],
      ...(series.stack ? { stack: series.stack } : {}),
      ...(data.kind === 'line' ? { showSymbol: data.categories.length < 3 } : {}),
      ...(index === 0 && data.threshold !== undefined
        ? {
            markLine: {
              silent: true,
              symbol: 'none',
              lineStyle: { color: '#c92a2a', type: 'dashed' },
              label: { position: 'insideEndTop', formatter: `threshold ${data.threshold}` },
              data: [{ yAxis: data.threshold }],
            },
          }
        : {}),
    })),
  };
}

/**
 * A chart drawn by Apache ECharts, with its numbers also in a table (hidden from sight, read by screen readers and
 * by tests), so what the chart says can be checked without reading pixels.
 */
export function Chart({ title, data, empty }: { title: string; data: ChartData; empty?: string }) {
  const element = useRef<HTMLDivElement>(null);
  const hasData = data.categories.length > 0 && data.series.length > 0;
  useEffect(() => {
    if (!element.current || !hasData) return undefined;
    const chart = init(element.current, undefined, { renderer: 'svg' });
    chart.setOption(optionOf(data));
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [data, hasData]);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {/* ECharts labels its own element with a description of the data; the figure keeps the chart's title. */}
        {hasData ? (
          <div role="img" aria-label={title}>
            <div ref={element} aria-hidden style={{ height: 260, width: '100%' }} />
          </div>
        ) : (
          <Text c="dimmed" size="sm">
            {empty ?? 'No data yet for this period.'}
          </Text>
        )}
        <VisuallyHidden>
          <Table aria-label={`${title} data`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{data.kind === 'line' ? 'Date' : 'Category'}</Table.Th>
                {data.series.map((series) => (
                  <Table.Th key={series.name}>{series.name}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.categories.map((category, index) => (
                <Table.Tr key={category}>
                  <Table.Td>{category}</Table.Td>
                  {data.series.map((series) => (
                    <Table.Td key={series.name}>
                      {Number.isFinite(series.values[index]) ? series.values[index] : ''}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </VisuallyHidden>
      </Stack>
    </Paper>
  );
}
