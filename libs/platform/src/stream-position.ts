import { DeliverPolicy } from '@nats-io/jetstream';
import type { Messaging } from './messaging.ts';

/**
 * The event stream's position just before a time: a destination made (or replayed) at that time reads from the
 * next event on. `created` names the stream, so a position kept in a stream made anew since is known to be stale.
 */
export async function eventsPositionBefore(
  messaging: Messaging,
  time: Date,
): Promise<{ created: string; position: number }> {
  const stream = messaging.names.eventsStream;
  const info = await messaging.jsm.streams.info(stream);
  const consumer = await messaging.js.consumers.get(stream, {
    filter_subjects: messaging.names.eventsSubjects,
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: time.toISOString(),
  });
  try {
    const first = await consumer.next({ expires: 1000 });
    return { created: info.created, position: first ? first.seq - 1 : info.state.last_seq };
  } finally {
    await consumer.delete().catch(() => undefined);
  }
}

/** How far a position is behind the stream: events after it, and the age of the first of them in seconds. */
export async function eventsBacklogAfter(
  messaging: Messaging,
  position: number,
): Promise<{ pending: number; lagSeconds: number }> {
  const stream = messaging.names.eventsStream;
  const { state } = await messaging.jsm.streams.info(stream);
  if (position >= state.last_seq) return { pending: 0, lagSeconds: 0 };
  const next = Math.max(position + 1, state.first_seq);
  const message = await messaging.jsm.streams.getMessage(stream, { seq: next }).catch(() => null);
  const at = message ? message.time.getTime() : Date.now();
  return { pending: state.last_seq - next + 1, lagSeconds: Math.max(0, (Date.now() - at) / 1000) };
}
