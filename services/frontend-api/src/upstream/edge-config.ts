import { readInteger, readList, type Env } from '@bunting/platform';

export type EdgeConfig = {
  /** The server the edge follows: any that speaks Unleash's client API (Unleash 5-8, Bunting, another edge). */
  upstreamUrl: URL;
  /** Tokens configured up front; their environments must be held before the edge is ready. */
  tokens: string[];
  /** Where the last known flags and tokens are kept for an offline start; none when unset. */
  persistDir: string | undefined;
  /** A Redis URL to keep them in instead (shared by the edges of a region); none when unset. */
  persistRedisUrl: string | undefined;
  /** The prefix of its keys there, so several edges (or regions) can share one Redis apart. */
  persistRedisPrefix: string;
  /** Polling interval when the upstream offers no stream (and the delay between stream reconnects). */
  pollMs: number;
  /** How often a mode fallen back from (streaming, delta) is tried again. */
  probeMs: number;
  /** After this long without an answer from the upstream, /ready reports the edge as stale. */
  staleAfterMs: number;
  /** How long a token learned on first use is trusted before it is validated again (a revoked one stops then). */
  tokenRevalidateMs: number;
  /**
   * Tokens the edge does not know that it may ask the upstream about, per second, whoever sends them; beyond that
   * they are refused without asking (EDGE_UNKNOWN_TOKENS_PER_SECOND).
   */
  unknownTokensPerSecond: number;
  /** How often aggregated SDK metrics go upstream. */
  metricsIntervalMs: number;
  /** Most metric entries (flag x app x environment) and registrations held while the upstream does not take them. */
  metricsLimit: number;
  /** Largest upstream answer taken, in bytes; a larger one is refused and the flags held are kept. */
  maxUpstreamBytes: number;
  /** How long one upstream request may take (streams: until their first byte). */
  requestTimeoutMs: number;
};

/** A setting that must be a whole number of at least 1 (a zero interval or limit would spin or hold nothing). */
function positive(raw: string | undefined, fallback: number, name: string): number {
  const value = readInteger(raw, fallback, name);
  if (value < 1) throw new Error(`${name} must be at least 1, got ${value}`);
  return value;
}

export function readEdgeConfig(env: Env = process.env): EdgeConfig {
  const upstream = env.UPSTREAM_URL;
  if (!upstream)
    throw new Error(
      'The edge needs UPSTREAM_URL: the Unleash or Bunting server it follows (for example http://unleash:4242)',
    );
  let upstreamUrl: URL;
  try {
    upstreamUrl = new URL(upstream.replace(/\/+$/, '') + '/');
  } catch {
    throw new Error(`UPSTREAM_URL is not a URL: ${upstream}`);
  }
  if (upstreamUrl.protocol !== 'http:' && upstreamUrl.protocol !== 'https:')
    throw new Error(`UPSTREAM_URL must be http or https, got ${upstreamUrl.protocol}`);
  return {
    upstreamUrl,
    tokens: readList(env.EDGE_TOKENS ?? env.TOKENS),
    persistDir: env.EDGE_PERSIST_DIR || undefined,
    persistRedisUrl: env.EDGE_REDIS_URL || undefined,
    persistRedisPrefix: env.EDGE_REDIS_PREFIX || 'bunting-edge:',
    pollMs: positive(env.EDGE_POLL_MS, 10_000, 'EDGE_POLL_MS'),
    probeMs: positive(env.EDGE_PROBE_MS, 300_000, 'EDGE_PROBE_MS'),
    staleAfterMs: positive(env.EDGE_STALE_AFTER_MS, 120_000, 'EDGE_STALE_AFTER_MS'),
    tokenRevalidateMs: positive(env.EDGE_TOKEN_REVALIDATE_MS, 60_000, 'EDGE_TOKEN_REVALIDATE_MS'),
    unknownTokensPerSecond: positive(env.EDGE_UNKNOWN_TOKENS_PER_SECOND, 20, 'EDGE_UNKNOWN_TOKENS_PER_SECOND'),
    metricsIntervalMs: positive(env.EDGE_METRICS_INTERVAL_MS, 60_000, 'EDGE_METRICS_INTERVAL_MS'),
    metricsLimit: positive(env.EDGE_METRICS_LIMIT, 100_000, 'EDGE_METRICS_LIMIT'),
    maxUpstreamBytes: positive(env.EDGE_UPSTREAM_MAX_BYTES, 64 * 1024 * 1024, 'EDGE_UPSTREAM_MAX_BYTES'),
    requestTimeoutMs: positive(env.EDGE_REQUEST_TIMEOUT_MS, 10_000, 'EDGE_REQUEST_TIMEOUT_MS'),
  };
}
