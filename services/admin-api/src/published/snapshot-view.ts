import { SnapshotView } from '@bunting/contracts';
import { answerView, type Messaging, type Queryable } from '@bunting/platform';
import { loadEnvironmentSnapshot } from '../configuration-feed/environment-snapshot.ts';

/**
 * Answers the SDK edge's snapshot requests: one environment's configuration, or only some of its flags, gzipped (large
 * ones stay well under NATS's limit).
 */
export function answerSnapshotView(messaging: Messaging, db: Queryable) {
  return answerView(messaging, SnapshotView, ({ environment, features }) =>
    loadEnvironmentSnapshot(db, environment, features),
  );
}
