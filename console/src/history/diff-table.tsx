import { Code, Table, Text } from '@mantine/core';
import { ADDED_COLOR, REMOVED_COLOR } from '../theme.ts';
import { formatValue, type Change } from './event-diff.ts';

/** A list of values in a line: the first twenty, then how many more. */
const someOf = (values: unknown[]) => {
  const shown = values
    .slice(0, 20)
    .map((value) => formatValue(value, 60))
    .join(', ');
  return values.length > 20 ? `${shown} and ${values.length - 20} more` : shown;
};

function ChangeRow({ change }: { change: Change }) {
  const path = <Code>{change.path || '(value)'}</Code>;
  switch (change.kind) {
    case 'added':
      return (
        <Table.Tr>
          <Table.Td>{path}</Table.Td>
          <Table.Td />
          <Table.Td>
            <Text size="sm" c={ADDED_COLOR}>
              {formatValue(change.after)}
            </Text>
          </Table.Td>
        </Table.Tr>
      );
    case 'removed':
      return (
        <Table.Tr>
          <Table.Td>{path}</Table.Td>
          <Table.Td>
            <Text size="sm" c={REMOVED_COLOR} td="line-through">
              {formatValue(change.before)}
            </Text>
          </Table.Td>
          <Table.Td />
        </Table.Tr>
      );
    case 'changed':
      return (
        <Table.Tr>
          <Table.Td>{path}</Table.Td>
          <Table.Td>
            <Text size="sm" c={REMOVED_COLOR} td="line-through">
              {formatValue(change.before)}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm" c={ADDED_COLOR}>
              {formatValue(change.after)}
            </Text>
          </Table.Td>
        </Table.Tr>
      );
    case 'items':
      return (
        <Table.Tr>
          <Table.Td>{path}</Table.Td>
          <Table.Td>
            {change.removed.length > 0 ? (
              <Text size="sm" c={REMOVED_COLOR}>
                − {someOf(change.removed)}
              </Text>
            ) : null}
          </Table.Td>
          <Table.Td>
            {change.added.length > 0 ? (
              <Text size="sm" c={ADDED_COLOR}>
                + {someOf(change.added)}
              </Text>
            ) : null}
          </Table.Td>
        </Table.Tr>
      );
  }
}

/** Differences as a table of field, before and after: an event's, or what a change request would do. */
export function DiffTable({ changes, label }: { changes: Change[]; label: string }) {
  return (
    <Table fz="sm" verticalSpacing={2} withRowBorders={false} aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="34%">Field</Table.Th>
          <Table.Th w="33%">Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {changes.map((change, index) => (
          <ChangeRow key={index} change={change} />
        ))}
      </Table.Tbody>
    </Table>
  );
}
