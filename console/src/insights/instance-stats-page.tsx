import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { Failed, Loading } from '../ui/states.tsx';
import { useInstanceStatistics } from './insight-queries.ts';
import { statisticRows } from './statistic-rows.ts';

/** Instance statistics (Unleash's /admin/instance): what this installation holds and how it is used, with a CSV. */
export default function InstanceStatsPage() {
  const statistics = useInstanceStatistics();
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm">Counted when the page opened.</Text>
        <Anchor href="/api/admin/instance-admin/statistics/csv" download="instance-statistics.csv">
          Download as CSV
        </Anchor>
      </Group>
      {statistics.isPending ? (
        <Loading label="Counting" />
      ) : statistics.isError ? (
        <Failed error={statistics.error} />
      ) : (
        <Table aria-label="Instance statistics" maw={640}>
          <Table.Tbody>
            {statisticRows(statistics.data).map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th scope="row" fw={500}>
                  {name}
                </Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
