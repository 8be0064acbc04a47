import { Anchor, Code, Stack, Table, Text, Title } from '@mantine/core';
import { Failed } from '../ui/states.tsx';
import { useCodeReferences } from './code-reference-queries.ts';

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** A flag's references in code: where to look before changing or removing it, and when its last use went. */
export function CodeReferencesSection({ project, flag }: { project: string; flag: string }) {
  const references = useCodeReferences(project, flag);
  if (references.isError) return <Failed error={references.error} title="Code references could not be loaded" />;
  const found = references.data?.references ?? [];
  const gone = references.data?.extinctions ?? [];
  return (
    <Stack gap="xs">
      <Title order={2}>Code references</Title>
      {found.length === 0 ? (
        <Text size="sm">
          {references.isPending
            ? 'Loading…'
            : 'No scanned repository uses this flag. Run bunting code-refs in CI to find where code uses flags.'}
        </Text>
      ) : (
        <Table aria-label="Code references" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Repository</Table.Th>
              <Table.Th>Branch</Table.Th>
              <Table.Th>Where</Table.Th>
              <Table.Th>Code</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {found.map((reference) => {
              const where = `${reference.path}:${reference.line}`;
              const own = reference.context.find((line) => line.includes(flag)) ?? '';
              return (
                <Table.Tr key={`${reference.repository} ${reference.branch} ${where}`}>
                  <Table.Td>{reference.repository}</Table.Td>
                  <Table.Td>{reference.branch}</Table.Td>
                  <Table.Td>
                    {reference.url ? (
                      <Anchor href={reference.url} target="_blank" rel="noreferrer">
                        {where}
                      </Anchor>
                    ) : (
                      where
                    )}
                  </Table.Td>
                  <Table.Td>{own ? <Code>{own.trim()}</Code> : null}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {gone.map((extinction) => (
        <Text size="sm" key={`${extinction.repository} ${extinction.branch}`}>
          Last reference in {extinction.repository} ({extinction.branch}) removed on {day(extinction.removedAt)} by{' '}
          {extinction.author ?? 'someone'} in commit <Code>{extinction.commit.slice(0, 12)}</Code>.
        </Text>
      ))}
    </Stack>
  );
}
