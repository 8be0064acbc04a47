import type { Env, PlatformConfig } from './config.ts';
import { connectDatabase, sql, type DatabasePool } from './database.ts';
import { createRemoteVerifier, type CredentialVerifier } from './credentials.ts';
import type { Logger } from './logger.ts';
import { closeMessaging, connectMessaging, ensureStandardStreams, type Messaging } from './messaging.ts';
import type { ReadinessCheck } from './readiness.ts';
import { closeRedis, connectRedis, type Redis } from './redis.ts';

/** The connections a process opens once and hands to every service it mounts. */
export type Infrastructure = {
  config: PlatformConfig;
  /** The environment the process was configured from; services read their own settings from it. */
  env: Env;
  log: Logger;
  db: DatabasePool;
  messaging: Messaging;
  redis: Redis;
  verifier: CredentialVerifier;
};

export async function connectInfrastructure(config: PlatformConfig, log: Logger, env: Env = process.env): Promise<Infrastructure> {
  const db = await connectDatabase(config.databaseUrl);
  const messaging = await connectMessaging(config.natsUrl, config.namespace, log);
  await ensureStandardStreams(messaging);
  const redis = await connectRedis(config.redisUrl);
  const verifier = createRemoteVerifier(messaging);
  return { config, env, log, db, messaging, redis, verifier };
}

export async function closeInfrastructure(infrastructure: Infrastructure): Promise<void> {
  infrastructure.verifier.stop();
  await closeMessaging(infrastructure.messaging);
  await closeRedis(infrastructure.redis);
  await infrastructure.db.end();
}

export function readinessChecks(infrastructure: Infrastructure): ReadinessCheck[] {
  return [
    { name: 'postgres', check: async () => { await infrastructure.db.query(sql.unsafe`select 1`); } },
    {
      name: 'nats',
      check: async () => {
        if (infrastructure.messaging.nc.isClosed()) throw new Error('connection closed');
        await infrastructure.messaging.nc.flush();
      },
    },
    { name: 'redis', check: async () => { await infrastructure.redis.ping(); } },
  ];
}
