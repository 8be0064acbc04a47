import { Group, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormModal } from '../ui/form-modal.tsx';
import { ImpactChartView } from '../impact-metrics/impact-chart-view.tsx';
import { ImpactControls, queryOf, type ImpactSelection } from '../impact-metrics/impact-controls.tsx';
import { useImpactData, useImpactMetadata } from '../impact-metrics/impact-queries.ts';
import type { SafeguardBody } from './release-plan-queries.ts';

type Existing = {
  impactMetric: {
    metricName: string;
    timeRange: ImpactSelection['timeRange'];
    aggregationMode: ImpactSelection['aggregationMode'];
    labelSelectors: Record<string, string[]>;
    source?: 'internal' | 'external';
  };
  triggerCondition: { operator: '>' | '<'; threshold: number };
};

/**
 * A safeguard's settings: the impact metric it watches (as a chart shows it) and the threshold it must not cross,
 * with the metric drawn live and the threshold as a line across it.
 */
export function SafeguardModal({
  title,
  effect,
  existing,
  pending,
  error,
  onSave,
  onClose,
}: {
  title: string;
  effect: string;
  existing: Existing | null;
  pending: boolean;
  error: unknown;
  onSave: (body: SafeguardBody) => void;
  onClose: () => void;
}) {
  const metadata = useImpactMetadata();
  const [selection, setSelection] = useState<ImpactSelection>(
    existing
      ? {
          metricName: existing.impactMetric.metricName,
          source: existing.impactMetric.source ?? 'internal',
          timeRange: existing.impactMetric.timeRange,
          aggregationMode: existing.impactMetric.aggregationMode,
          labelSelectors: existing.impactMetric.labelSelectors,
        }
      : { metricName: '', source: 'internal', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
  );
  const [operator, setOperator] = useState<'>' | '<'>(existing?.triggerCondition.operator ?? '>');
  const [threshold, setThreshold] = useState<number | string>(existing?.triggerCondition.threshold ?? '');
  const labels = useImpactData(selection.metricName ? { ...queryOf(selection), mode: 'edit' } : null);
  const ready = selection.metricName !== '' && typeof threshold === 'number' && Number.isFinite(threshold);
  const submit = () =>
    ready &&
    onSave({
      impactMetric: {
        metricName: selection.metricName,
        timeRange: selection.timeRange,
        aggregationMode: selection.aggregationMode,
        labelSelectors: selection.labelSelectors,
        source: selection.source,
      },
      triggerCondition: { operator, threshold: Number(threshold) },
    });
  return (
    <FormModal
      title={title}
      size="xl"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save safeguard"
      pending={pending}
      disabled={!ready}
      error={error}
    >
      <Text size="sm" c="dimmed">
        {effect}
      </Text>
      <ImpactControls
        metrics={metadata.data?.metrics ?? []}
        labels={labels.data?.labels ?? {}}
        value={selection}
        onChange={setSelection}
      />
      <Group align="flex-end">
        <NativeSelect
          label="Trips when the value is"
          value={operator}
          onChange={(event) => setOperator(event.currentTarget.value as '>' | '<')}
          data={[
            { value: '>', label: 'above' },
            { value: '<', label: 'below' },
          ]}
        />
        <NumberInput label="Threshold" value={threshold} onChange={setThreshold} decimalScale={6} w={200} />
      </Group>
      <Stack gap={4}>
        <ImpactChartView
          title="Watched metric"
          selection={selection}
          {...(typeof threshold === 'number' ? { threshold } : {})}
        />
      </Stack>
    </FormModal>
  );
}
