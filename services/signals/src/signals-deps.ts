import type { CredentialVerifier, DatabasePool, Logger, Messaging, Metrics, Redis } from '@bunting/platform';
import type { SignalChanges } from './signal-changes.ts';
import type { SignalsConfig } from './signals-config.ts';
import type { SecretBox } from './actions/secret-box.ts';

export type SignalsDeps = {
  db: DatabasePool;
  changes: SignalChanges;
  messaging: Messaging;
  redis: Redis;
  log: Logger;
  config: SignalsConfig;
  verifier: CredentialVerifier;
  namespace: string;
  secrets: SecretBox;
  metrics: Metrics;
};
