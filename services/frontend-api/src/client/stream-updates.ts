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
  const latest = new Map<string, { revision: number; messages: Map<string, Buffer | null> }>();
  // A stream keeps its query for its life: its key is made once, not once per change and stream.
  const keys = new WeakMap<ClientQuery, string>();
  const keyOf = (query: ClientQuery) => keys.get(query) ?? keys.set(query, queryKey(query)).get(query)!;
  function messagesOf(next: CompiledEnvironment) {
    let entry = latest.get(next.environment);
    if (entry?.revision !== next.revision) {
      entry = { revision: next.revision, messages: new Map() };
      latest.set(next.environment, entry);
    }
    return entry.messages;
  }
  function kept<T extends Buffer | null>(messages: Map<string, Buffer | null>, key: string, make: () => T): T {
    if (messages.has(key)) return messages.get(key) as T;
    const message = make();
    if (messages.size < MOST_KEPT) messages.set(key, message);
    return message;
  }
  return {
    /**
     * The message for a stream that holds `sent`, or null when nothing it sees changed: bytes, so writing it to
     * thousands of streams encodes it once.
     */
    messageFor(next: CompiledEnvironment, query: ClientQuery, sent: number): Buffer | null {
      return kept(messagesOf(next), `${keyOf(query)}\u0000${sent}`, () => {
        const events = deltaEvents(next, query, changesSince(next.environment, sent));
        return events.length > 0 ? Buffer.from(sseMessage('unleash-updated', next.revision, events)) : null;
      });
    },
    /** The unleash-connected message with every flag the query sees, for a stream opening at `environment`'s revision. */
    hydrationFor(environment: CompiledEnvironment, query: ClientQuery): Buffer {
      return kept(messagesOf(environment), `${keyOf(query)}\u0000hydration`, () =>
        Buffer.from(sseMessage('unleash-connected', environment.revision, deltaEvents(environment, query, null))),
      );
    },
  };
}
