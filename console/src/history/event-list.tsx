import { Anchor, Badge, Button, Code, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import type { Event } from '@bunting/contracts';
import { DiffTable } from './diff-table.tsx';
import { diffEvent } from './event-diff.ts';

const readable = (type: string) => type.replaceAll('-', ' ');

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
              <Anchor
                component={Link}
                to={`/projects/${encodeURIComponent(event.project)}/features/${encodeURIComponent(event.featureName)}`}
                ff="monospace"
                size="sm"
              >
                {event.featureName}
              </Anchor>
            ) : null}
            {event.environment ? (
              <Badge variant="light" color="gray">
                {event.environment}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {event.createdBy} ·{' '}
            <time dateTime={event.createdAt} title={when.toISOString()}>
              {when.toLocaleString()}
            </time>
          </Text>
        </Group>
        {changes.length > 0 ? <DiffTable changes={changes} label={`Changes of event ${event.id}`} /> : null}
        <Group>
          <Button size="compact-xs" variant="subtle" onClick={toggle} aria-expanded={full}>
            {full ? 'Hide the full event' : 'Show the full event'}
          </Button>
        </Group>
        <Collapse expanded={full}>
          {full ? (
            <Code block aria-label={`Event ${event.id} in full`}>
              {JSON.stringify(event, null, 2)}
            </Code>
          ) : null}
        </Collapse>
      </Stack>
    </Paper>
  );
}
