import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { eventually, httpClient, startPrivateRedisSentinel, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Redis through Sentinel (REDIS_SENTINELS): Bunting finds the master by asking the sentinel and, when the master dies
 * and the sentinel promotes the replica, keeps the console's sessions on the new master without a restart; the SDK
 * edge, which needs no Redis, answers throughout.
 */
let sentinel: Awaited<ReturnType<typeof startPrivateRedisSentinel>>;
let stack: TestStack;
const frontendToken = 'default:development.sentinel-frontend';
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  sentinel = await startPrivateRedisSentinel();
  // REDIS_URL points nowhere: with sentinels configured the master's address comes from them.
  stack = await startTestStack({
    env: {
      REDIS_SENTINELS: sentinel.sentinels,
      REDIS_SENTINEL_NAME: sentinel.name,
      REDIS_URL: 'redis://127.0.0.1:1',
      INIT_FRONTEND_API_TOKENS: frontendToken,
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.dispose();
  await sentinel?.dispose();
});

const frontend = () => httpClient(stack.url, { authorization: frontendToken });
const sdkSees = async (flag: string) =>
  ((await frontend().get('/api/frontend')).body.toggles as { name: string }[] | undefined)?.some(
    (toggle) => toggle.name === flag,
  ) ?? false;

/** How many console sessions of this stack the Redis at `port` holds (0 when it cannot answer). */
async function storedSessions(port: number): Promise<number> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.keys(`${stack.isolation.namespace}:session:*`)).length;
  } catch {
    return 0;
  } finally {
    redis.disconnect();
  }
}

const signIn = async () =>
  (await httpClient(stack.url).post('/auth/simple/login', { username: 'admin', password: 'unleash4all' })).status;

async function enabledFlag(name: string) {
  expect((await stack.admin.post(base, { name })).status).toBe(201);
  expect((await stack.admin.post(`${base}/${name}/environments/development/on`)).status).toBe(200);
}

describe('Redis through Sentinel', () => {
  it('finds the master through the sentinel and follows a failover to the promoted replica', async () => {
    await enabledFlag('before-failover');
    await eventually(() => sdkSees('before-failover'));
    expect(await signIn()).toBe(200);
    const before = await eventually(async () => (await storedSessions(sentinel.masterPort)) || false);
    // Replication is asynchronous: the master dies once the replica holds what it had (on a fast run the replica was
    // still waiting for its first copy, and the sessions counted below were not there).
    await eventually(async () => (await storedSessions(sentinel.replicaPort)) >= before);

    await sentinel.killMaster();
    // The edge answers from memory while the sentinel notices and promotes the replica.
    expect((await frontend().get('/api/frontend')).status).toBe(200);
    const monitor = new Redis({ port: Number(sentinel.sentinels.split(':')[1]), host: '127.0.0.1' });
    try {
      await eventually(
        async () => {
          const [, port] = (await monitor.call('SENTINEL', 'get-master-addr-by-name', sentinel.name)) as [
            string,
            string,
          ];
          return Number(port) === sentinel.replicaPort;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
    } finally {
      monitor.disconnect();
    }

    await enabledFlag('after-failover');
    await eventually(() => sdkSees('after-failover'), { timeoutMs: 20_000 });
    // A sign-in after the failover keeps its session on the promoted replica: Bunting followed the sentinel's answer.
    await eventually(async () => (await signIn()) === 200, { timeoutMs: 20_000 });
    const after = await eventually(
      async () => {
        const sessions = await storedSessions(sentinel.replicaPort);
        return sessions > before && sessions;
      },
      { timeoutMs: 20_000 },
    );
    expect(after).toBeGreaterThan(before);
    expect((await frontend().get('/api/frontend')).status).toBe(200);
  }, 90_000);
});
