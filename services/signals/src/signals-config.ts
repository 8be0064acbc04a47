import { readInteger, type Env } from '@bunting/platform';

/** The signal limits of the spec, as defaults a self-hosted installation can change. */
export type SignalsConfig = {
  maxEndpoints: number;
  maxTokensPerEndpoint: number;
  /** Accepted signals per endpoint per second. */
  requestsPerSecond: number;
  maxPayloadBytes: number;
  /** Signals kept per endpoint; older ones are dropped as new ones arrive. */
  keptPerEndpoint: number;
  /** Where actions call admin-api's public API; unset means this process's own address (all-in-one). */
  adminApiUrl: string | null;
  /** Encrypts the service-account tokens actions run with. */
  secretKey: string;
};

export function readSignalsConfig(env: Env = process.env): SignalsConfig {
  return {
    maxEndpoints: readInteger(env.SIGNAL_ENDPOINTS_LIMIT, 5, 'SIGNAL_ENDPOINTS_LIMIT'),
    maxTokensPerEndpoint: readInteger(env.SIGNAL_ENDPOINT_TOKENS_LIMIT, 5, 'SIGNAL_ENDPOINT_TOKENS_LIMIT'),
    requestsPerSecond: readInteger(env.SIGNAL_ENDPOINT_RATE_LIMIT, 1, 'SIGNAL_ENDPOINT_RATE_LIMIT'),
    maxPayloadBytes: readInteger(env.SIGNAL_PAYLOAD_LIMIT_BYTES, 100 * 1024, 'SIGNAL_PAYLOAD_LIMIT_BYTES'),
    keptPerEndpoint: Math.max(1, readInteger(env.SIGNALS_KEPT_PER_ENDPOINT, 1000, 'SIGNALS_KEPT_PER_ENDPOINT')),
    adminApiUrl: env.ADMIN_API_URL ?? null,
    secretKey: env.BUNTING_SECRET_KEY ?? 'bunting-development-secret-key-change-me',
  };
}
