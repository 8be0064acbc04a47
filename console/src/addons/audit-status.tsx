import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useAuditReplay, useAuditStatus } from './addon-queries.ts';

/** Seconds as a person reads them: "4 s", "12 min", "3 h". */
export function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** A time as a datetime-local input holds it: the reader's own clock, to the minute. */
function localInput(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** Healthy or failing, at a glance; how far behind when it is. */
export function AuditHealth({ id }: { id: number }) {
  const status = useAuditStatus(id);
  if (!status.data) return null;
  const { healthy, pending, lagSeconds } = status.data;
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color={healthy ? 'green' : 'red'}>
        {healthy ? 'Delivering' : 'Failing'}
      </Badge>
      {pending > 0 ? (
        <Text size="xs" c="dimmed">
          {pending} waiting, {duration(lagSeconds)} behind
        </Text>
      ) : null}
    </Group>
  );
}

/**
 * Where an audit destination's delivery stands, in words: what it has taken, what waits, the last failure, and a
 * way to send everything again from a time (after the receiver lost data, or when it is new).
 */
export function AuditDelivery({ id }: { id: number }) {
  const status = useAuditStatus(id);
  const replay = useAuditReplay(id);
  const [from, setFrom] = useState(() => localInput(new Date(Date.now() - 3_600_000)));
  const data = status.data;
  if (!data) return null;
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        Delivery
      </Text>
      <AuditHealth id={id} />
      <Text size="sm">
        {data.delivered} record{data.delivered === 1 ? '' : 's'} delivered
        {data.lastDeliveredAt ? `, the last ${new Date(data.lastDeliveredAt).toLocaleString()}` : ''}.{' '}
        {data.pending === 0
          ? 'Nothing is waiting.'
          : `${data.pending} event${data.pending === 1 ? '' : 's'} waiting; the oldest is ${duration(data.lagSeconds)} old.`}
      </Text>
      {data.lastError ? (
        <Text size="sm" c="red">
          Failing since {data.failingSince ? new Date(data.failingSince).toLocaleString() : 'a moment ago'} (
          {data.failures} tries): {data.lastError}. It is tried again, with longer waits, until the receiver takes it;
          nothing is skipped.
        </Text>
      ) : null}
      {data.missed > 0 ? (
        <Text size="sm" c="orange">
          {data.missed} events were gone from the stream (older than its 7 days) before they could be delivered.
        </Text>
      ) : null}
      <Group align="flex-end">
        <TextInput
          type="datetime-local"
          label="Send again from"
          description="Everything from this time on is delivered again, with the same ids."
          value={from}
          onChange={(event) => setFrom(event.currentTarget.value)}
        />
        <Button
          variant="light"
          loading={replay.isPending}
          disabled={!from}
          onClick={() => replay.mutate(new Date(from).toISOString())}
        >
          Replay
        </Button>
      </Group>
    </Stack>
  );
}
