import type { CredentialVerifier, Messaging } from '@bunting/platform';
import type { FrontendConfig } from './frontend-config.ts';
import type { SnapshotStore } from './snapshots/snapshot-store.ts';
import type { AllowedOrigins } from './frontend/allowed-origins.ts';

export type FrontendDeps = {
  config: FrontendConfig;
  snapshots: SnapshotStore;
  verifier: CredentialVerifier;
  messaging: Messaging;
  origins: AllowedOrigins;
};
