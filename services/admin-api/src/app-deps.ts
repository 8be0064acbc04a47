import type { CredentialVerifier, DatabasePool, Logger, Messaging, Redis } from '@bunting/platform';
import type { Changes } from './events/changes.ts';
import type { AdminConfig } from './admin-config.ts';
import type { SessionStore } from './sessions/user-sessions.ts';

/** What every admin-api route module is built from. */
export type AdminDeps = {
  db: DatabasePool;
  changes: Changes;
  messaging: Messaging;
  redis: Redis;
  log: Logger;
  config: AdminConfig;
  verifier: CredentialVerifier;
  /** Signed-in users' sessions (Redis). */
  sessions: SessionStore;
  /** Prefix of this installation's Redis keys and NATS subjects. */
  namespace: string;
};
