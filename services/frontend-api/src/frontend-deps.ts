import type { FrontendConfig } from './frontend-config.ts';
import type { SnapshotStore } from './snapshots/snapshot-source.ts';
import type { AllowedOrigins } from './frontend/allowed-origins.ts';
import type { SdkTokens } from './tokens/sdk-tokens.ts';
import type { EdgeCounts } from './edge-metrics.ts';
import type { AdmitImpact } from './metrics/impact-admission.ts';
import type { SendMetrics } from './metrics/metrics-publisher.ts';

export type FrontendDeps = {
  config: FrontendConfig;
  snapshots: SnapshotStore;
  tokens: SdkTokens;
  /** Where SDK metrics and registrations go: the cluster's metrics stream, or a standalone edge's upstream. */
  sendMetrics: SendMetrics;
  origins: AllowedOrigins;
  /** Answers served, by API, for the metrics. */
  counts: EdgeCounts;
  /** What of a metrics post's impact metrics is published. */
  admitImpact: AdmitImpact;
};
