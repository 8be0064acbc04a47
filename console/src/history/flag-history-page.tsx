import { Anchor, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { segment } from '../ui/addresses.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { EventItem } from './event-list.tsx';
import { EVENTS_PER_PAGE, useEventPage } from './event-queries.ts';

/** A flag's events from the event log, newest first, each with its diff. */
export default function FlagHistoryPage() {
  const { projectId = '', featureName = '' } = useParams();
  const [page, setPage] = useState(1);
  const events = useEventPage({ feature: `IS:${featureName}` }, page);
  const flagPath = `/projects/${segment(projectId)}/features/${segment(featureName)}`;
  return (
    <Stack>
      <div>
        <Text size="sm" c="dimmed">
          <Anchor component={Link} to={`/projects/${segment(projectId)}`}>
            {projectId}
          </Anchor>{' '}
          /{' '}
          <Anchor component={Link} to={flagPath}>
            {featureName}
          </Anchor>
        </Text>
        <Title order={1}>History of {featureName}</Title>
      </div>
      {events.isPending ? (
        <Loading label="Loading history" />
      ) : events.isError ? (
        <Failed error={events.error} />
      ) : events.data.events.length === 0 ? (
        <Empty title="No events">Nothing has happened to this flag yet.</Empty>
      ) : (
        <>
          {events.data.events.map((event) => (
            <EventItem key={event.id} event={event} showFlag={false} />
          ))}
          <Group justify="flex-end">
            <Pagination
              total={Math.max(1, Math.ceil(events.data.total / EVENTS_PER_PAGE))}
              value={page}
              onChange={setPage}
              getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}
