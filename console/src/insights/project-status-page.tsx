import { Anchor, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { projectPage } from '../ui/addresses.ts';
import { useProjectStatus } from './insight-queries.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { Chart } from '../ui/chart.tsx';
import { STAGE_ORDER, activityByDay } from './project-status-data.ts';

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} aria-label={label}>
        {value}
      </Text>
    </Paper>
  );
}

/** A project's status (Unleash's project status and health): health, what it holds, activity and lifecycle stages. */
export default function ProjectStatusPage() {
  const project = useParams().projectId ?? '';
  const status = useProjectStatus(project);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/projects">
          Projects
        </Anchor>{' '}
        /{' '}
        <Anchor component={Link} to={projectPage(project)}>
          {project}
        </Anchor>
      </Text>
      <Title order={1}>Status of {project}</Title>
      {status.isPending ? (
        <Loading label="Loading the status" />
      ) : status.isError ? (
        <Failed error={status.error} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <Figure label="Health" value={`${status.data.health.current} %`} />
            <Figure label="Stale flags" value={status.data.staleFlags.total} />
            <Figure label="Members" value={status.data.resources.members} />
            <Figure label="API tokens" value={status.data.resources.apiTokens} />
            <Figure label="Segments" value={status.data.resources.segments} />
          </SimpleGrid>
          <Chart
            title="Changes per day, last 30 days"
            data={activityByDay(status.data.activityCountByDate, new Date())}
          />
          <Paper withBorder p="md">
            <Title order={2} size="h4">
              Flags by lifecycle stage
            </Title>
            <Table aria-label="Flags by lifecycle stage">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Stage</Table.Th>
                  <Table.Th>Flags</Table.Th>
                  <Table.Th>Average days in it</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {STAGE_ORDER.map(([key, label]) => {
                  const stage = status.data.lifecycleSummary[key];
                  return (
                    <Table.Tr key={key}>
                      <Table.Td>{label}</Table.Td>
                      <Table.Td>{stage.currentFlags}</Table.Td>
                      <Table.Td>
                        {'last30Days' in stage ? `${stage.last30Days} in the last 30 days` : (stage.averageDays ?? '–')}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Paper>
        </>
      )}
    </Stack>
  );
}
