import { Anchor, Badge, Button, Code, Collapse, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import type { Event } from '@bunting/contracts';
import { ADDED_COLOR, REMOVED_COLOR } from '../theme.ts';
import { diffEvent, formatValue, type Change } from './event-diff.ts';

const readable = (type: string) => type.replaceAll('-', ' ');

/** A list of values in a line: the first twenty, then how many more. */
const someOf = (values: unknown[]) => {
  const shown = values.slice(0, 20).map((value) => formatValue(value, 60)).join(', ');
  return values.length > 20 ? `${shown} and ${values.length - 20} more` : shown;
};

function ChangeRow({ change }: { change: Change }) {
  const path = <Code>{change.path || '(value)'}</Code>;
  switch (change.kind) {
    case 'added':
      return <Table.Tr><Table.Td>{path}</Table.Td><Table.Td /><Table.Td><Text size="sm" c={ADDED_COLOR}>{formatValue(change.after)}</Text></Table.Td></Table.Tr>;
    case 'removed':
      return <Table.Tr><Table.Td>{path}</Table.Td><Table.Td><Text size="sm" c={REMOVED_COLOR} td="line-through">{formatValue(change.before)}</Text></Table.Td><Table.Td /></Table.Tr>;
    case 'changed':
      return (
        <Table.Tr>
          <Table.Td>{path}</Table.Td>
          <Table.Td><Text size="sm" c={REMOVED_COLOR} td="line-through">{formatValue(change.before)}</Text></Table.Td>
          <Table.Td><Text size="sm" c={ADDED_COLOR}>{formatValue(change.after)}</Text></Table.Td>
        </Table.Tr>
      );
    case 'items':
      return (
        <Table.Tr>
          <Table.Td>{path}</Table.Td>
          <Table.Td>{change.removed.length > 0 ? <Text size="sm" c={REMOVED_COLOR}>− {someOf(change.removed)}</Text> : null}</Table.Td>
          <Table.Td>{change.added.length > 0 ? <Text size="sm" c={ADDED_COLOR}>+ {someOf(change.added)}</Text> : null}</Table.Td>
        </Table.Tr>
      );
  }
}

/** One event: what happened, who did it and when, and a readable diff of what it changed. */
export function EventItem({ event, showFlag }: { event: Event; showFlag: boolean }) {
  const changes = diffEvent(event.preData, event.data);
  const when = new Date(event.createdAt);
  const [full, { toggle }] = useDisclosure(false);
  return (
    <Paper withBorder p="sm" component="article" aria-label={`${readable(event.type)} by ${event.createdBy}`}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Text fw={600}>{readable(event.type)}</Text>
            {showFlag && event.featureName && event.project ? (
              <Anchor component={Link} to={`/projects/${encodeURIComponent(event.project)}/features/${encodeURIComponent(event.featureName)}`} ff="monospace" size="sm">{event.featureName}</Anchor>
            ) : null}
            {event.environment ? <Badge variant="light" color="gray">{event.environment}</Badge> : null}
          </Group>
          <Text size="sm" c="dimmed">
            {event.createdBy} · <time dateTime={event.createdAt} title={when.toISOString()}>{when.toLocaleString()}</time>
          </Text>
        </Group>
        {changes.length > 0 ? (
          <Table fz="sm" verticalSpacing={2} withRowBorders={false} aria-label={`Changes of event ${event.id}`}>
            <Table.Thead>
              <Table.Tr><Table.Th w="34%">Field</Table.Th><Table.Th w="33%">Before</Table.Th><Table.Th>After</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>{changes.map((change, index) => <ChangeRow key={index} change={change} />)}</Table.Tbody>
          </Table>
        ) : null}
        <Group><Button size="compact-xs" variant="subtle" onClick={toggle} aria-expanded={full}>{full ? 'Hide the full event' : 'Show the full event'}</Button></Group>
        <Collapse expanded={full}>
          {full ? <Code block aria-label={`Event ${event.id} in full`}>{JSON.stringify(event, null, 2)}</Code> : null}
        </Collapse>
      </Stack>
    </Paper>
  );
}
