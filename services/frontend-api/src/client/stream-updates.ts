import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import type { ChangesSince } from '../snapshots/revision-changes.ts';
import { deltaEvents, type DeltaEvent } from './client-delta.ts';
import type { ClientQuery } from './client-payload.ts';

export function sseMessage(event: string, id: number, events: DeltaEvent[]): string {
  return `event: ${event}\nid: ${id}\ndata: ${JSON.stringify({ events })}\n\n`;
}

/**
 * The update message each open stream is sent for a new revision, encoded once per environment, query and revision
 * the stream held: 10,000 SDKs with the same token and the same last revision get the same bytes, so a change costs
 * one selection and one JSON encoding, not one per stream. Only the newest revision of each environment is kept.
 */
export function createStreamUpdates(changesSince: (environment: string, revision: number) => ChangesSince | null) {
  const latest = new Map<string, { revision: number; messages: Map<string, string | null> }>();
  return {
    /** The message for a stream that holds `sent`, or null when nothing it sees changed. */
    messageFor(next: CompiledEnvironment, query: ClientQuery, tag: string, sent: number): string | null {
      let entry = latest.get(next.environment);
      if (entry?.revision !== next.revision) {
        entry = { revision: next.revision, messages: new Map() };
        latest.set(next.environment, entry);
      }
      const key = `${tag}:${sent}`;
      let message = entry.messages.get(key);
      if (message === undefined) {
        const events = deltaEvents(next, query, changesSince(next.environment, sent));
        message = events.length > 0 ? sseMessage('unleash-updated', next.revision, events) : null;
        entry.messages.set(key, message);
      }
      return message;
    },
  };
}
