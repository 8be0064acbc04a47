import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { natsNames } from '@bunting/contracts';

const BASE_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Each test file gets its own database, NATS namespace and Redis key prefix, so files run in parallel. */
export type Isolation = {
  id: string;
  databaseUrl: string;
  namespace: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
};

export async function isolate(): Promise<Isolation> {
  const id = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const database = `bunting_${id}`;
  const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${pg.escapeIdentifier(database)}`);
  await admin.end();
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  const namespace = id;
  return {
    id,
    databaseUrl,
    namespace,
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: TEST_NATS_URL,
      REDIS_URL: TEST_REDIS_URL,
      BUNTING_NAMESPACE: namespace,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      // OWASP's least cost for argon2id, a fifth of the default's CPU: the suite signs in hundreds of times on two
      // cores. The default's own hashes are tested where the setting is read (passwords.test.ts).
      PASSWORD_HASHING: 'm=19456,t=2,p=1',
    },
    cleanup: () => removeIsolation(database, namespace),
  };
}

async function removeIsolation(database: string, namespace: string) {
  const names = natsNames(namespace);
  try {
    const nc = await connect({ servers: TEST_NATS_URL });
    const jsm = await jetstreamManager(nc);
    for (const stream of [names.eventsStream, names.metricsStream, names.signalsStream, names.feedStream]) {
      await jsm.streams.delete(stream).catch(() => undefined);
    }
    await nc.close();
  } catch {
    // A test that stopped NATS itself may leave nothing to clean here.
  }
  try {
    const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  } catch {
    // best effort
  }
  const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`);
  await admin.end();
}
