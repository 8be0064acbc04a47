import { Group, SegmentedControl, SimpleGrid, Stack, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Failed, Loading } from '../ui/states.tsx';
import { Chart } from '../ui/chart.tsx';
import { useInstanceInsights } from './insight-queries.ts';
import { environmentUpdates, flagTrend, projectHealth, sdkMetrics, userTrend } from './insights-data.ts';

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

/** Unleash's executive dashboard (/insights): flags and users over time, project health, changes, SDK use. */
export default function DashboardPage() {
  const [days, setDays] = useState('30');
  const range = { from: day(Number(days)), to: day(0) };
  const insights = useInstanceInsights(range.from, range.to);
  const charts = useMemo(
    () =>
      insights.data && {
        flags: flagTrend(insights.data),
        users: userTrend(insights.data),
        health: projectHealth(insights.data),
        changes: environmentUpdates(insights.data),
        metrics: sdkMetrics(insights.data),
      },
    [insights.data],
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Insights</Title>
        <SegmentedControl
          aria-label="Period"
          value={days}
          onChange={setDays}
          data={[
            { value: '30', label: '30 days' },
            { value: '90', label: '90 days' },
            { value: '365', label: 'A year' },
          ]}
        />
      </Group>
      {insights.isPending ? (
        <Loading label="Loading insights" />
      ) : insights.isError || !charts ? (
        <Failed error={insights.error} />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Chart title="Flags" data={charts.flags} />
          <Chart title="Users" data={charts.users} />
          <Chart title="Health and time to production per project" data={charts.health} />
          <Chart title="Configuration changes per environment type" data={charts.changes} />
          <Chart title="SDK evaluations" data={charts.metrics} empty="No SDK has reported metrics in this period." />
        </SimpleGrid>
      )}
    </Stack>
  );
}
