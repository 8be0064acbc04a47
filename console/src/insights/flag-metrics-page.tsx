import { NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useFlagMetrics } from './insight-queries.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { FlagBreadcrumbs } from '../ui/flag-breadcrumbs.tsx';
import { Chart } from '../ui/chart.tsx';
import { HOURS, exposuresByHour, lastHours } from './flag-metrics-data.ts';

/** A flag's SDK metrics (Unleash's flag metrics tab): how often SDKs answered yes and no, per hour of the last 48. */
export default function FlagMetricsPage() {
  const { projectId = '', featureName = '' } = useParams();
  const metrics = useFlagMetrics(featureName);
  const environments = [...new Set((metrics.data?.data ?? []).map((row) => row.environment))].sort();
  const [chosen, setChosen] = useState<string | null>(null);
  const environment = chosen ?? environments[0] ?? '';
  return (
    <Stack>
      <FlagBreadcrumbs projectId={projectId} featureName={featureName} />
      <Title order={1}>Metrics of {featureName}</Title>
      {metrics.isPending ? (
        <Loading label="Loading metrics" />
      ) : metrics.isError ? (
        <Failed error={metrics.error} />
      ) : metrics.data.data.length === 0 ? (
        <Text c="dimmed">No SDK has reported this flag in the last {HOURS} hours.</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder p="md">
              <Title order={2} size="h4">
                Last hour
              </Title>
              <Table aria-label="Last hour per environment">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Environment</Table.Th>
                    <Table.Th>Yes</Table.Th>
                    <Table.Th>No</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {metrics.data.lastHourUsage.map((usage) => (
                    <Table.Tr key={usage.environment}>
                      <Table.Td>{usage.environment}</Table.Td>
                      <Table.Td>{usage.yes}</Table.Td>
                      <Table.Td>{usage.no}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Paper>
            <Paper withBorder p="md">
              <Title order={2} size="h4">
                Applications
              </Title>
              <Text size="sm">{metrics.data.seenApplications.join(', ')}</Text>
            </Paper>
          </SimpleGrid>
          <NativeSelect
            label="Environment"
            value={environment}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={environments}
            maw={240}
          />
          <Chart
            title={`Exposures per hour in ${environment}`}
            data={exposuresByHour(metrics.data.data, environment, lastHours(new Date()))}
          />
        </>
      )}
    </Stack>
  );
}
