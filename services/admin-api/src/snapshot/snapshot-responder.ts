import { gzipSync } from 'node:zlib';
import { SnapshotRequest } from '@bunting/contracts';
import type { DatabasePool, Messaging } from '@bunting/platform';
import { loadEnvironmentSnapshot } from './snapshot-query.ts';

/**
 * Answers the SDK edge's snapshot requests over NATS; replicas share them as a queue group. The answer is
 * gzipped JSON, which keeps even large configurations well under NATS's message size limit.
 */
export function answerSnapshotRequests(messaging: Messaging, db: DatabasePool) {
  const subscription = messaging.nc.subscribe(messaging.names.snapshot, {
    queue: 'admin-api',
    callback: (error, message) => {
      if (error) return;
      void (async () => {
        try {
          const request = SnapshotRequest.parse(message.json());
          message.respond(gzipSync(JSON.stringify({ snapshot: await loadEnvironmentSnapshot(db, request.environment) })));
        } catch (failure) {
          messaging.log.warn({ err: failure }, 'could not answer a snapshot request');
          message.respond(gzipSync(JSON.stringify({ error: 'snapshot unavailable' })));
        }
      })();
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
