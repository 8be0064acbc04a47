import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { usePermission } from '../api/session.ts';
import { CreateButton } from '../ui/create-button.tsx';
import { DeleteButton } from '../ui/delete-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { QueryView } from '../ui/query-view.tsx';
import { ImpactChartView } from './impact-chart-view.tsx';
import { ImpactControls, queryOf, type ImpactSelection } from './impact-controls.tsx';
import {
  useDeleteChart,
  useFlagCharts,
  useImpactData,
  useImpactMetadata,
  useSaveChart,
  type ImpactChart,
} from './impact-queries.ts';

const selectionOf = (chart: ImpactChart): ImpactSelection => ({
  metricName: chart.metricName,
  source: chart.source ?? 'internal',
  timeRange: chart.timeRange,
  aggregationMode: chart.aggregationMode,
  labelSelectors: chart.labelSelectors,
});

function ChartModal({
  project,
  flag,
  chart,
  onClose,
}: {
  project: string;
  flag: string;
  chart: ImpactChart | null;
  onClose: () => void;
}) {
  const metadata = useImpactMetadata();
  const [selection, setSelection] = useState<ImpactSelection>(
    chart
      ? selectionOf(chart)
      : { metricName: '', source: 'internal', timeRange: 'day', aggregationMode: 'count', labelSelectors: {} },
  );
  const [title, setTitle] = useState(chart?.title ?? '');
  const [yAxisMin, setYAxisMin] = useState<'zero' | 'auto'>(chart?.yAxisMin ?? 'zero');
  const labels = useImpactData(selection.metricName ? { ...queryOf(selection), mode: 'edit' } : null);
  const save = useSaveChart(project, flag);
  const submit = () =>
    save.mutate(
      {
        ...(chart ? { id: chart.id } : {}),
        metricName: selection.metricName,
        source: selection.source,
        timeRange: selection.timeRange,
        aggregationMode: selection.aggregationMode,
        labelSelectors: selection.labelSelectors,
        yAxisMin,
        ...(title.trim() ? { title: title.trim() } : {}),
      },
      { onSuccess: onClose },
    );
  return (
    <FormModal
      title={chart ? 'Change chart' : 'New chart'}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save chart"
      pending={save.isPending}
      disabled={!selection.metricName}
      error={save.error}
    >
      <TextInput
        label="Title"
        placeholder="The metric's name"
        value={title}
        onChange={(event) => setTitle(event.currentTarget.value)}
        data-autofocus
      />
      <ImpactControls
        metrics={metadata.data?.metrics ?? []}
        labels={labels.data?.labels ?? {}}
        value={selection}
        onChange={setSelection}
      />
      <NativeSelect
        label="Value axis"
        value={yAxisMin}
        onChange={(event) => setYAxisMin(event.currentTarget.value as 'zero' | 'auto')}
        data={[
          { value: 'zero', label: 'From zero' },
          { value: 'auto', label: 'Fit the values' },
        ]}
      />
    </FormModal>
  );
}

/** The flag's impact metrics: the charts its people chose, each over its own range and aggregation. */
export function FlagImpactSection({ project, flag }: { project: string; flag: string }) {
  const can = usePermission();
  const charts = useFlagCharts(project, flag);
  const remove = useDeleteChart(project, flag);
  const [editing, setEditing] = useState<ImpactChart | null | undefined>(undefined);
  const write = can('UPDATE_FEATURE', { project });
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Impact metrics
        </Title>
        <CreateButton permission={write} onClick={() => setEditing(null)}>
          Add chart
        </CreateButton>
      </Group>
      <QueryView
        query={charts}
        loading="Loading charts"
        empty="No charts yet"
        isEmpty={(data) => data.configs.length === 0}
        emptyHint={
          <Text size="sm" c="dimmed">
            Chart a metric your application sends (errors, latency, conversions) beside this flag's rollout.
          </Text>
        }
      >
        {(data) => (
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            {data.configs.map((chart) => (
              <Paper key={chart.id} p={0}>
                <ImpactChartView
                  title={chart.title || chart.displayName}
                  selection={selectionOf(chart)}
                  yAxisMin={chart.yAxisMin}
                />
                <Group justify="flex-end" gap="xs" mt={4}>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    disabled={!write.allowed}
                    onClick={() => setEditing(chart)}
                    aria-label={`Change the chart ${chart.title || chart.displayName}`}
                  >
                    Change
                  </Button>
                  <DeleteButton
                    verb="Remove"
                    what={`the chart ${chart.title || chart.displayName}`}
                    disabled={!write.allowed}
                    title="Remove this chart?"
                    message="The metric is kept; only this chart leaves the flag's page."
                    onConfirm={() => remove.mutate(chart.id)}
                  />
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        )}
      </QueryView>
      {editing !== undefined ? (
        <ChartModal project={project} flag={flag} chart={editing} onClose={() => setEditing(undefined)} />
      ) : null}
    </Stack>
  );
}
