import { Alert, Anchor, Group, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { flagPage } from '../ui/addresses.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { useCleanupCandidates } from './code-reference-queries.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 10) : 'never');

/** The flags across every project that look safe to remove, the longest unused first. */
export default function CleanupPage() {
  const [days, setDays] = useState(30);
  const candidates = useCleanupCandidates(days);
  return (
    <Stack>
      <Title order={1}>Flags to clean up</Title>
      <Text maw={820}>
        Every flag left in code is a branch someone has to read. These flags look safe to remove: no scanned repository
        uses them any more, no SDK has asked for them in the number of days below, and their work is done (marked
        completed) or they are stale. Remove what is left of them in code, then archive them from their page.
      </Text>
      <Group>
        <NumberInput
          label="Days without an evaluation"
          value={days}
          min={1}
          max={3650}
          onChange={(value) => setDays(typeof value === 'number' && value >= 1 ? value : 30)}
          w={240}
        />
      </Group>
      {candidates.data?.scannedBranches === 0 ? (
        <Alert color="yellow" variant="light" role="status" aria-label="No code scanned">
          No repository has been scanned yet, so Bunting cannot tell whether code still uses these flags. Run{' '}
          <code>bunting code-refs</code> in your CI to record where code uses flags.
        </Alert>
      ) : null}
      {candidates.isPending ? (
        <Loading />
      ) : candidates.isError ? (
        <Failed error={candidates.error} />
      ) : candidates.data.flags.length === 0 ? (
        <Empty title="Nothing to clean up">No flag is unused, unevaluated and done or stale.</Empty>
      ) : (
        <Table aria-label="Flags to clean up" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Flag</Table.Th>
              <Table.Th>Project</Table.Th>
              <Table.Th>Last evaluated</Table.Th>
              <Table.Th>Why</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {candidates.data.flags.map((flag) => (
              <Table.Tr key={flag.name}>
                <Table.Td>
                  <Anchor component={Link} to={flagPage(flag.project, flag.name)}>
                    {flag.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{flag.project}</Table.Td>
                <Table.Td>{when(flag.lastSeenAt)}</Table.Td>
                <Table.Td>{flag.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
