import { gzipSync } from 'node:zlib';
import { SnapshotRequest } from '@bunting/contracts';
import { answerRequests, type DatabasePool, type Messaging } from '@bunting/platform';
import { loadEnvironmentSnapshot } from './snapshot-query.ts';

/**
 * Answers the SDK edge's snapshot requests over NATS. The answer is gzipped JSON, which keeps even large
 * configurations well under NATS's message size limit.
 */
export function answerSnapshotRequests(messaging: Messaging, db: DatabasePool) {
  return answerRequests({
    messaging,
    subject: messaging.names.snapshot,
    queue: 'admin-api',
    handle: async (request) => {
      const { environment } = SnapshotRequest.parse(request);
      return gzipSync(JSON.stringify({ snapshot: await loadEnvironmentSnapshot(db, environment) }));
    },
    failure: () => gzipSync(JSON.stringify({ error: 'snapshot unavailable' })),
  });
}
