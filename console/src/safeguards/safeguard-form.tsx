import { Group, NativeSelect, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormModal } from '../ui/form-modal.tsx';
import { ImpactChartView } from '../impact-metrics/impact-chart-view.tsx';
import { ImpactControls, queryOf, type ImpactSelection } from '../impact-metrics/impact-controls.tsx';
import { useImpactData, useImpactMetadata } from '../impact-metrics/impact-queries.ts';
import type { SafeguardBody } from './safeguard-body.ts';

type Existing = {
  impactMetric: {
    metricName: string;
    timeRange: ImpactSelection['timeRange'];
    aggregationMode: ImpactSelection['aggregationMode'];
    labelSelectors: Record<string, string[]>;
    source?: 'internal' | 'external';
  };
  triggerCondition: { operator: '>' | '<'; threshold: number };
  comparison?: { harm: 'increase' | 'decrease'; alpha: number; minimumSample: number } | null;
};

type Kind = 'threshold' | 'comparison';

/**
 * A safeguard's settings: the impact metric it watches (as a chart shows it) and either the threshold it must not
 * cross (drawn as a line across the live metric) or, as a guardrail, a comparison of the users who get the change
 * with those who do not.
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
  /** What happens when it trips, as the end of a sentence. */
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
  const [kind, setKind] = useState<Kind>(existing?.comparison ? 'comparison' : 'threshold');
  const [operator, setOperator] = useState<'>' | '<'>(existing?.triggerCondition.operator ?? '>');
  const [threshold, setThreshold] = useState<number | string>(existing?.triggerCondition.threshold ?? '');
  const [harm, setHarm] = useState<'increase' | 'decrease'>(existing?.comparison?.harm ?? 'increase');
  const [alarmPercent, setAlarmPercent] = useState<number | string>((existing?.comparison?.alpha ?? 0.05) * 100);
  const [minimumSample, setMinimumSample] = useState<number | string>(existing?.comparison?.minimumSample ?? 1000);
  const labels = useImpactData(selection.metricName ? { ...queryOf(selection), mode: 'edit' } : null);
  const thresholdReady = typeof threshold === 'number' && Number.isFinite(threshold);
  const comparisonReady =
    typeof alarmPercent === 'number' &&
    alarmPercent >= 0.1 &&
    alarmPercent <= 20 &&
    typeof minimumSample === 'number' &&
    Number.isInteger(minimumSample) &&
    minimumSample >= 30;
  const ready = selection.metricName !== '' && (kind === 'threshold' ? thresholdReady : comparisonReady);
  const impactMetric = {
    metricName: selection.metricName,
    timeRange: selection.timeRange,
    aggregationMode: selection.aggregationMode,
    labelSelectors: selection.labelSelectors,
    source: selection.source,
  };
  const submit = () =>
    ready &&
    onSave(
      kind === 'threshold'
        ? { impactMetric, triggerCondition: { operator, threshold: Number(threshold) } }
        : {
            impactMetric,
            comparison: { harm, alpha: Number(alarmPercent) / 100, minimumSample: Number(minimumSample) },
          },
    );
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
        {kind === 'threshold'
          ? `When the metric crosses the threshold, ${effect}`
          : `When the comparison shows harm, or a split that does not match the rollout, ${effect}`}
      </Text>
      <ImpactControls
        metrics={metadata.data?.metrics ?? []}
        labels={labels.data?.labels ?? {}}
        value={selection}
        onChange={setSelection}
      />
      <SegmentedControl
        aria-label="How the safeguard decides"
        value={kind}
        onChange={(value) => setKind(value as Kind)}
        data={[
          { value: 'threshold', label: 'A threshold' },
          { value: 'comparison', label: 'Compare with users without the change' },
        ]}
      />
      {kind === 'threshold' ? (
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
      ) : (
        <Stack gap="xs">
          <Text size="sm">
            A guardrail compares the users who get the change with those who do not, on this metric, and acts only when
            the difference is too large to be chance. The application counts the metric with the flag in its flag
            context, so each count says which side the user was on.
          </Text>
          <Group align="flex-start">
            <NativeSelect
              label="Harm is when the metric"
              value={harm}
              onChange={(event) => setHarm(event.currentTarget.value as 'increase' | 'decrease')}
              data={[
                { value: 'increase', label: 'goes up (errors, latency)' },
                { value: 'decrease', label: 'goes down (conversions)' },
              ]}
            />
            <NumberInput
              label="Chance of a false alarm (%)"
              description="However often it looks; 5 is usual"
              value={alarmPercent}
              onChange={setAlarmPercent}
              min={0.1}
              max={20}
              decimalScale={2}
              w={220}
            />
            <NumberInput
              label="Minimum sample per side"
              description="Evaluations before it can call the change safe"
              value={minimumSample}
              onChange={setMinimumSample}
              min={30}
              allowDecimal={false}
              w={240}
            />
          </Group>
        </Stack>
      )}
      <Stack gap={4}>
        <ImpactChartView
          title="Watched metric"
          selection={selection}
          {...(kind === 'threshold' && typeof threshold === 'number' ? { threshold } : {})}
        />
      </Stack>
    </FormModal>
  );
}
