import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { EVENT_TYPES } from '@bunting/contracts';
import { useProjects } from '../projects/project-queries.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { EventItem } from './event-list.tsx';
import { useEventLog } from './event-queries.ts';

const day = (date: string | null) => (date ? date.slice(0, 10) : null);

/** Every event in the log, newest first, narrowed by type, project, flag, user, dates or free text; more load as one scrolls. */
export default function HistoryPage() {
  const projects = useProjects();
  const [type, setType] = useState<string | null>(null);
  const [project, setProject] = useState<string | null>(null);
  const [flag, setFlag] = useState('');
  const [user, setUser] = useState('');
  const [text, setText] = useState('');
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [settledFlag] = useDebouncedValue(flag.trim(), 300);
  const [settledUser] = useDebouncedValue(user.trim(), 300);
  const [settledText] = useDebouncedValue(text.trim(), 300);
  const filters: Record<string, string> = {};
  if (type) filters.type = `IS:${type}`;
  if (project) filters.project = `IS:${project}`;
  if (settledFlag) filters.feature = `IS:${settledFlag}`;
  if (settledUser) filters.createdBy = `IS:${settledUser}`;
  if (settledText) filters.query = settledText;
  if (range[0]) filters.from = `IS:${day(range[0])}`;
  if (range[1]) filters.to = `IS:${day(range[1])}`;
  const log = useEventLog(filters);
  const events = log.data?.pages.flatMap((page) => page.events) ?? [];
  const total = log.data?.pages[0]?.total ?? 0;
  // Scrolling to the end of the list loads the next page.
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const marker = end.current;
    if (!marker || !log.hasNextPage) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !log.isFetchingNextPage) void log.fetchNextPage();
    });
    observer.observe(marker);
    return () => observer.disconnect();
  }, [log, log.hasNextPage, log.isFetchingNextPage]);
  return (
    <Stack>
      <Title order={1}>History</Title>
      <Group align="flex-end" role="search" aria-label="Filter events">
        <Select
          label="Event type"
          searchable
          clearable
          w={240}
          data={[...EVENT_TYPES]}
          value={type}
          onChange={setType}
        />
        <Select
          label="Project"
          clearable
          w={180}
          data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={project}
          onChange={setProject}
        />
        <TextInput label="Flag" w={180} value={flag} onChange={(event) => setFlag(event.currentTarget.value)} />
        <TextInput label="Changed by" w={160} value={user} onChange={(event) => setUser(event.currentTarget.value)} />
        <DatePickerInput
          type="range"
          label="Dates"
          clearable
          w={240}
          value={range}
          onChange={(value) => setRange(value)}
          nextLabel="Next month"
          previousLabel="Previous month"
          clearButtonProps={{ 'aria-label': 'Clear the dates' }}
        />
        <TextInput label="Search" w={200} value={text} onChange={(event) => setText(event.currentTarget.value)} />
      </Group>
      {log.isPending ? (
        <Loading label="Loading events" />
      ) : log.isError ? (
        <Failed error={log.error} />
      ) : events.length === 0 ? (
        <Empty title="No events match" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {total} event{total === 1 ? '' : 's'}
          </Text>
          {events.map((event) => (
            <EventItem key={event.id} event={event} showFlag />
          ))}
          <div ref={end} />
          {log.hasNextPage ? (
            <Group justify="center">
              <Button variant="light" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
                Load older events
              </Button>
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}
