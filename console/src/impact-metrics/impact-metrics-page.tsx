import { Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { Chart } from '../ui/chart.tsx';
import { FormError } from '../ui/form-modal.tsx';
import { QueryView } from '../ui/query-view.tsx';
import { Failed, Loading } from '../ui/states.tsx';
import { impactChartData } from './impact-chart-data.ts';
import { ImpactControls, queryOf, type ImpactSelection } from './impact-controls.tsx';
import { useExternalSource, useImpactData, useImpactMetadata, useSaveExternalSource } from './impact-queries.ts';

const START: ImpactSelection = {
  metricName: '',
  source: 'internal',
  timeRange: 'hour',
  aggregationMode: 'count',
  labelSelectors: {},
};

/** Where the external Prometheus-compatible source is set, for admins. */
function ExternalSourceSettings() {
  const source = useExternalSource(true);
  const save = useSaveExternalSource();
  const [enabled, setEnabled] = useState(false);
  const [url, setUrl] = useState('');
  useEffect(() => {
    if (!source.data) return;
    setEnabled(source.data.enabled);
    setUrl(source.data.url ?? '');
  }, [source.data]);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">
        External source
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A Prometheus-compatible server whose metrics charts and safeguards may use beside the ones SDKs send here.
      </Text>
      <QueryView query={source} loading="Loading the external source">
        {() => (
          <form
            aria-label="External source"
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate({ enabled, ...(url.trim() ? { url: url.trim() } : {}) });
            }}
          >
            <Stack gap="sm">
              <Switch
                label="Read metrics from an external source"
                checked={enabled}
                onChange={(event) => setEnabled(event.currentTarget.checked)}
              />
              <TextInput
                label="Address"
                description="Its HTTP API's base address; user:password@ in it is sent as basic auth and shown masked"
                placeholder="http://prometheus:9090"
                value={url}
                onChange={(event) => setUrl(event.currentTarget.value)}
                error={fieldError(save.error, 'url')}
              />
              <FormError error={save.error} fields={['url']} />
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Save external source
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </QueryView>
    </Paper>
  );
}

/** The metrics explorer: any impact metric, internal or external, over a range, aggregated and filtered by label. */
export default function ImpactMetricsPage() {
  const can = usePermission();
  const metadata = useImpactMetadata();
  const [selection, setSelection] = useState<ImpactSelection>(START);
  const data = useImpactData(selection.metricName ? { ...queryOf(selection), mode: 'edit' } : null);
  const chosen = metadata.data?.metrics.find(
    (metric) => metric.name === selection.metricName && metric.source === selection.source,
  );
  return (
    <Stack>
      <Title order={1}>Impact metrics</Title>
      <Text c="dimmed" size="sm">
        The counters, gauges and histograms your applications define through their Unleash SDK, as they report them.
      </Text>
      {metadata.isPending ? (
        <Loading label="Loading metrics" />
      ) : metadata.isError ? (
        <Failed error={metadata.error} />
      ) : metadata.data.metrics.length === 0 ? (
        <Text>
          No application has sent impact metrics yet. Define one with the SDK (<code>defineCounter</code>,{' '}
          <code>defineGauge</code>, <code>defineHistogram</code>) or register one.
        </Text>
      ) : (
        <Paper withBorder p="md">
          <ImpactControls
            metrics={metadata.data.metrics}
            labels={data.data?.labels ?? {}}
            value={selection}
            onChange={setSelection}
          />
        </Paper>
      )}
      {selection.metricName ? (
        data.isPending ? (
          <Loading label="Loading the metric" />
        ) : data.isError ? (
          <Failed error={data.error} title="The metric cannot be drawn" />
        ) : (
          <Chart
            title={chosen?.displayName ?? selection.metricName}
            empty="No values in this range yet."
            data={impactChartData(data.data, selection.timeRange, {
              name: chosen?.displayName ?? selection.metricName,
            })}
          />
        )
      ) : null}
      {can('ADMIN').allowed ? <ExternalSourceSettings /> : null}
    </Stack>
  );
}
