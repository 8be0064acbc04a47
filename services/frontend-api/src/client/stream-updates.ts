import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import type { ChangesSince } from '../snapshots/revision-changes.ts';
import { deltaEvents, type DeltaEvent } from './client-delta.ts';
import { queryKey, type ClientQuery } from './client-payload.ts';

export function sseMessage(event: string, id: number, events: DeltaEvent[]): string {
  return `event: ${event}\nid: ${id}\ndata: ${JSON.stringify({ events })}\n\n`;
}

/** At most this many messages are kept per environment and revision; past it, each stream's is made for it alone. */
const MOST_KEPT = 256;

/**
 * The messages open streams are sent, encoded once per environment, query and revision:
 * - the update for a new revision, by the revision the stream held: 10,000 SDKs with the same token and the same
 *   last revision get the same bytes, so a change costs one selection and one JSON encoding, not one per stream;
 * - the hydration a stream opens with, as bytes written to every stream that opens at that revision: SDKs
 *   reconnecting all at once (a replica restarted) cost one encoding, not one snapshot-sized text each held until
 *   its socket takes it.
 * Only the newest revision of each environment is kept.
 */
export function createStreamUpdates(changesSince: (environment: string, revision: number) => ChangesSince | null) {
  const latest = new Map<string, { revision: number; messages: Map<string, string | Buffer | null> }>();
  function messagesOf(next: CompiledEnvironment) {
    let entry = latest.get(next.environment);
    if (entry?.revision !== next.revision) {
      entry = { revision: next.revision, messages: new Map() };
      latest.set(next.environment, entry);
    }
    return entry.messages;
  }
  function kept<T extends string | Buffer | null>(
    messages: Map<string, string | Buffer | null>,
    key: string,
    make: () => T,
  ): T {
    if (messages.has(key)) return messages.get(key) as T;
    const message = make();
    if (messages.size < MOST_KEPT) messages.set(key, message);
    return message;
  }
  return {
    /** The message for a stream that holds `sent`, or null when nothing it sees changed. */
    messageFor(next: CompiledEnvironment, query: ClientQuery, sent: number): string | null {
      return kept(messagesOf(next), `${queryKey(query)}\u0000${sent}`, () => {
        const events = deltaEvents(next, query, changesSince(next.environment, sent));
        return events.length > 0 ? sseMessage('unleash-updated', next.revision, events) : null;
      });
    },
    /** The unleash-connected message with every flag the query sees, for a stream opening at `environment`'s revision. */
    hydrationFor(environment: CompiledEnvironment, query: ClientQuery): Buffer {
      return kept(messagesOf(environment), `${queryKey(query)}\u0000hydration`, () =>
        Buffer.from(sseMessage('unleash-connected', environment.revision, deltaEvents(environment, query, null))),
      );
    },
  };
}
