import { Group, MultiSelect, NativeSelect, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import type { ImpactMetricInfo, ImpactQuery } from './impact-queries.ts';
import { AGGREGATIONS_OF } from './impact-chart-data.ts';

export type ImpactSelection = {
  metricName: string;
  source: 'internal' | 'external';
  timeRange: ImpactQuery['range'];
  aggregationMode: NonNullable<ImpactQuery['aggregationMode']>;
  labelSelectors: Record<string, string[]>;
};

const RANGES = [
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

/** The metric's key in the picker: internal and external metrics may share a name. */
const keyOf = (metric: { name: string; source: string }) => `${metric.source}:${metric.name}`;

/** The query an impact chart draws, as the API takes it. */
export const queryOf = (selection: ImpactSelection): ImpactQuery => ({
  metricName: selection.metricName,
  range: selection.timeRange,
  aggregationMode: selection.aggregationMode,
  source: selection.source,
  ...(Object.values(selection.labelSelectors).some((values) => values.length > 0)
    ? { labels: JSON.stringify(selection.labelSelectors) }
    : {}),
});

/**
 * What an impact chart shows: which metric, over what range, aggregated how (only what its type allows), and which
 * of its series (a filter per label, offered the values its series have).
 */
export function ImpactControls({
  metrics,
  labels,
  value,
  onChange,
}: {
  metrics: readonly ImpactMetricInfo[];
  labels: Record<string, string[]>;
  value: ImpactSelection;
  onChange: (next: ImpactSelection) => void;
}) {
  const rangeLabel = useId();
  const chosen = metrics.find((metric) => metric.name === value.metricName && metric.source === value.source);
  const aggregations = AGGREGATIONS_OF[chosen?.type ?? 'unknown']!;
  const pick = (key: string | null) => {
    const metric = metrics.find((candidate) => keyOf(candidate) === key);
    if (!metric) return;
    onChange({
      ...value,
      metricName: metric.name,
      source: metric.source,
      aggregationMode: AGGREGATIONS_OF[metric.type]![0]!.value as ImpactSelection['aggregationMode'],
      labelSelectors: {},
    });
  };
  return (
    <Stack gap="sm">
      <Select
        label="Metric"
        placeholder="Choose a metric"
        searchable
        value={chosen ? keyOf(chosen) : null}
        onChange={pick}
        data={metrics.map((metric) => ({
          value: keyOf(metric),
          label: `${metric.displayName} (${metric.type}${metric.source === 'external' ? ', external' : ''})`,
        }))}
        nothingFoundMessage="No metric of that name"
      />
      <Group align="flex-end" gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500} id={rangeLabel}>
            Time range
          </Text>
          <SegmentedControl
            aria-labelledby={rangeLabel}
            data={RANGES}
            value={value.timeRange}
            onChange={(range) => onChange({ ...value, timeRange: range as ImpactSelection['timeRange'] })}
          />
        </Stack>
        <NativeSelect
          label="Aggregation"
          value={value.aggregationMode}
          data={aggregations.map((aggregation) => ({ ...aggregation }))}
          onChange={(event) =>
            onChange({ ...value, aggregationMode: event.currentTarget.value as ImpactSelection['aggregationMode'] })
          }
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {Object.entries(labels)
          .filter(([name]) => name !== '__name__')
          .map(([name, values]) => (
            <MultiSelect
              key={name}
              label={`Only where ${name} is`}
              placeholder="any"
              data={values}
              value={value.labelSelectors[name] ?? []}
              searchable
              clearable
              onChange={(picked) => onChange({ ...value, labelSelectors: { ...value.labelSelectors, [name]: picked } })}
            />
          ))}
      </SimpleGrid>
    </Stack>
  );
}
