import type { Env, PlatformConfig } from './config.ts';
import type { DatabasePool } from './database.ts';
import { createRemoteVerifier, type CredentialVerifier } from './credentials.ts';
import type { Logger } from './logger.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import type { Messaging } from './messaging.ts';
import { createReadiness, type Readiness } from './readiness.ts';
import type { Redis } from './redis.ts';

// Each driver (pg and slonik, the NATS client, ioredis) is loaded when its connection is opened: a process that opens
// none of them (the standalone edge) does not carry their code.

/** The connections a service may need; each target opens only those its services declare. */
export type Connections = {
  db: DatabasePool;
  messaging: Messaging;
  redis: Redis;
  /** Asks admin-api who a credential belongs to (over NATS), caching answers briefly. */
  verifier: CredentialVerifier;
};
export type Connection = keyof Connections;

type Base = {
  config: PlatformConfig;
  /** The environment the process was configured from; services read their own settings from it. */
  env: Env;
  log: Logger;
  /** Where services add their own readiness checks. */
  readiness: Readiness;
  /** The process's Prometheus metrics, shared by the services it mounts. */
  metrics: Metrics;
};

/** What one process opened, shared by every service it mounts. */
export type Infrastructure = Base & Partial<Connections>;

/** What a service is built from: the process's base and exactly the connections it declared. */
export type ServiceInfrastructure<K extends Connection> = Base & Pick<Connections, K>;

/** The infrastructure as a service that declared `needs` sees it; throws if the process did not open one of them. */
export function infrastructureFor<K extends Connection>(
  infrastructure: Infrastructure,
  needs: readonly K[],
): ServiceInfrastructure<K> {
  for (const need of needs) {
    if (infrastructure[need] === undefined)
      throw new Error(`this process did not open the ${need} connection a service needs`);
  }
  return infrastructure as ServiceInfrastructure<K>;
}

/** What is being waited for while the process starts, for /ready. */
export type StartupState = { awaiting: string | null };

/**
 * Opens the connections `needs` names (the verifier implies NATS). A dependency that is down is waited for, with a
 * log line saying what is awaited, rather than crashing the process.
 */
export async function connectInfrastructure(
  config: PlatformConfig,
  log: Logger,
  env: Env,
  needs: ReadonlySet<Connection>,
  state: StartupState = { awaiting: null },
  metrics: Metrics = createMetrics(),
): Promise<Infrastructure> {
  const infrastructure: Infrastructure = { config, env, log, readiness: createReadiness(), metrics };
  const wait = <T>(name: string, address: string, connect: () => Promise<T>) =>
    connectWithRetry(name, address, connect, log, state);
  if (needs.has('db')) {
    const { connectDatabase } = await import('./database.ts');
    infrastructure.db = await wait('postgres', redact(config.databaseUrl), () => connectDatabase(config.databaseUrl));
  }
  if (needs.has('messaging') || needs.has('verifier')) {
    const { closeMessaging, connectMessaging, ensureStandardStreams } = await import('./messaging.ts');
    const messaging = await wait('nats', config.natsUrl, async () => {
      const connected = await connectMessaging(config.natsUrl, config.namespace, log);
      try {
        await ensureStandardStreams(connected, config.natsStreamReplicas);
      } catch (error) {
        await closeMessaging(connected);
        throw error;
      }
      return connected;
    });
    infrastructure.messaging = messaging;
    if (needs.has('verifier')) infrastructure.verifier = createRemoteVerifier(messaging, { metrics });
  }
  if (needs.has('redis')) {
    const { connectRedis } = await import('./redis.ts');
    const sentinel =
      config.redisSentinels.length > 0
        ? { sentinels: config.redisSentinels, name: config.redisSentinelName }
        : undefined;
    const address = sentinel
      ? `sentinel ${config.redisSentinelName} via ${config.redisSentinels.map((entry) => `${entry.host}:${entry.port}`).join(',')}`
      : redact(config.redisUrl);
    infrastructure.redis = await wait('redis', address, () => connectRedis(config.redisUrl, log, sentinel));
  }
  state.awaiting = null;
  return infrastructure;
}

async function connectWithRetry<T>(
  name: string,
  address: string,
  connect: () => Promise<T>,
  log: Logger,
  state: StartupState,
): Promise<T> {
  state.awaiting = name;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await connect();
    } catch (error) {
      const delay = Math.min(5000, 250 * 2 ** Math.min(attempt, 5));
      log.warn(
        { dependency: name, address, attempt, reason: (error as Error).message, retryInMs: delay },
        `waiting for ${name} at ${address}`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

export async function closeInfrastructure(infrastructure: Infrastructure): Promise<void> {
  infrastructure.verifier?.stop();
  if (infrastructure.messaging) await (await import('./messaging.ts')).closeMessaging(infrastructure.messaging);
  if (infrastructure.redis) await (await import('./redis.ts')).closeRedis(infrastructure.redis);
  await infrastructure.db?.end();
}

/**
 * Adds a readiness check per connection the process opened. `tolerated` connections are reported without making the
 * process unready: its services keep answering without them (the SDK edge, from memory).
 */
export function addConnectionChecks(infrastructure: Infrastructure, tolerated: ReadonlySet<Connection>): void {
  const { db, messaging, redis, readiness } = infrastructure;
  if (db) {
    // Made once (the module is loaded already, as db was opened through it), not on every readiness check.
    const selectOne = import('./database.ts').then(({ sql }) => sql.unsafe`select 1`);
    readiness.add({
      name: 'postgres',
      critical: !tolerated.has('db'),
      check: async () => {
        await db.query(await selectOne);
      },
    });
  }
  if (messaging) {
    readiness.add({
      name: 'nats',
      critical: !tolerated.has('messaging'),
      check: async () => {
        if (!messaging.connected()) throw new Error('disconnected; reconnecting');
        await messaging.nc.flush();
      },
    });
  }
  if (redis)
    readiness.add({
      name: 'redis',
      critical: !tolerated.has('redis'),
      check: async () => {
        await redis.ping();
      },
    });
}
