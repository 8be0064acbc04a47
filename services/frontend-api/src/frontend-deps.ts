import type { Messaging } from '@bunting/platform';
import type { FrontendConfig } from './frontend-config.ts';
import type { SnapshotStore } from './snapshots/snapshot-store.ts';
import type { AllowedOrigins } from './frontend/allowed-origins.ts';
import type { SdkTokens } from './tokens/sdk-tokens.ts';
import type { EdgeCounts } from './edge-metrics.ts';
import type { AdmitImpact } from './metrics/impact-admission.ts';

export type FrontendDeps = {
  config: FrontendConfig;
  snapshots: SnapshotStore;
  tokens: SdkTokens;
  messaging: Messaging;
  origins: AllowedOrigins;
  /** Answers served, by API, for the metrics. */
  counts: EdgeCounts;
  /** What of a metrics post's impact metrics is published. */
  admitImpact: AdmitImpact;
};
