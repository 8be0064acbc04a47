import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { FEED_VERSION, type FeedEvent, type FeedScope, type NatsNames } from '@bunting/contracts';
import type { OutboxMessage } from '@bunting/platform';

/** A hydration's gzipped body is cut into parts of this many bytes: each part one NATS message, below its 1 MiB. */
const PART_BYTES = 512 * 1024;
/** A delta larger than this is written as a hydration instead (a bulk change of thousands of flags). */
export const DELTA_LIMIT_BYTES = 256 * 1024;

const scopeKey = (scope: FeedScope) =>
  scope === 'tokens' ? { environment: undefined } : { environment: scope.environment };

/** One revision's changes, on the scope's delta subject. */
export function deltaMessage(
  names: NatsNames,
  scope: FeedScope,
  revision: number,
  events: readonly FeedEvent[],
): OutboxMessage {
  return {
    uuid: randomUUID(),
    subject: names.feed(scope).delta,
    payload: { v: FEED_VERSION, ...scopeKey(scope), revision, events },
  };
}

/**
 * The scope whole at a revision: its gzipped body in parts, then where they are (the hydration subject keeps the
 * last), and, when the revision is a new one (`announce`), its delta saying it is a hydration.
 */
export function hydrationMessages(
  names: NatsNames,
  scope: FeedScope,
  revision: number,
  body: unknown,
  announce: boolean,
): OutboxMessage[] {
  const subjects = names.feed(scope);
  const zipped = gzipSync(JSON.stringify(body));
  const parts: OutboxMessage[] = [];
  for (let offset = 0, part = 1; offset < zipped.length || part === 1; offset += PART_BYTES, part += 1) {
    parts.push({
      uuid: randomUUID(),
      subject: subjects.part(revision, part),
      payload: { v: FEED_VERSION, part, data: zipped.subarray(offset, offset + PART_BYTES).toString('base64') },
    });
  }
  const manifest = {
    uuid: randomUUID(),
    subject: subjects.hydration,
    payload: {
      v: FEED_VERSION,
      ...scopeKey(scope),
      revision,
      parts: parts.length,
      createdAt: new Date().toISOString(),
    },
  };
  const announced = announce
    ? [
        {
          uuid: randomUUID(),
          subject: subjects.delta,
          payload: { v: FEED_VERSION, ...scopeKey(scope), revision, events: [], hydration: true },
        },
      ]
    : [];
  return [...parts, manifest, ...announced];
}
