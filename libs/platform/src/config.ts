/** Settings every service reads from the environment, with defaults that work on a developer machine. */
export type PlatformConfig = {
  databaseUrl: string;
  natsUrl: string;
  /** Copies JetStream keeps of each stream (NATS_STREAM_REPLICAS): 1 on a single server, 3 on a cluster of three. */
  natsStreamReplicas: number;
  redisUrl: string;
  /**
   * Redis through Sentinel (REDIS_SENTINELS: host:port,host:port; REDIS_SENTINEL_NAME, the monitored master's name):
   * the client asks the sentinels where the master is and follows a failover. Unset: REDIS_URL directly.
   */
  redisSentinels: { host: string; port: number }[];
  redisSentinelName: string;
  port: number;
  host: string;
  /** Prefix of every NATS stream and subject and every Redis key, so deployments and test files never collide. */
  namespace: string;
  logLevel: string;
  /** Whether the SDK edge's successful answers are logged, one line each (LOG_SDK_REQUESTS). */
  logSdkRequests: boolean;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /**
   * Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (addresses or CIDRs, TRUST_PROXY); none by
   * default, so no client can choose the address its requests count as coming from.
   */
  trustProxy: string[];
  /** The installation's public address (UNLEASH_URL), when configured: links, OIDC callbacks, same-origin checks. */
  publicUrl: string | undefined;
};

export type Env = Record<string, string | undefined>;

export function readPlatformConfig(env: Env = process.env): PlatformConfig {
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/bunting',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    natsStreamReplicas: readInteger(env.NATS_STREAM_REPLICAS, 1, 'NATS_STREAM_REPLICAS'),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisSentinels: readList(env.REDIS_SENTINELS).map((entry) => {
      const [host, port] = entry.split(':');
      return { host: host!, port: readInteger(port, 26379, 'REDIS_SENTINELS') };
    }),
    redisSentinelName: env.REDIS_SENTINEL_NAME ?? 'mymaster',
    port: readInteger(env.PORT, 4242, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    namespace: env.BUNTING_NAMESPACE ?? 'bunting',
    logLevel: env.LOG_LEVEL ?? 'info',
    logSdkRequests: readBoolean(env.LOG_SDK_REQUESTS, false),
    bodyLimit: readInteger(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    trustProxy: readList(env.TRUST_PROXY),
    publicUrl: env.UNLEASH_URL ?? env.BUNTING_URL,
  };
}

export function readInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

export function readBoolean(raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

export function readList(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
