import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { eventually, httpClient, startPrivateRedisSentinel, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Redis through Sentinel (REDIS_SENTINELS): Bunting finds the master by asking the sentinel and, when the master dies
 * and the sentinel promotes the replica, writes its SDK snapshots to the new master without a restart.
 */
let sentinel: Awaited<ReturnType<typeof startPrivateRedisSentinel>>;
let stack: TestStack;
const frontendToken = 'default:development.sentinel-frontend';
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  sentinel = await startPrivateRedisSentinel();
  // REDIS_URL points nowhere: with sentinels configured the master's address comes from them.
  stack = await startTestStack({
    env: { REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_NAME: sentinel.name, REDIS_URL: 'redis://127.0.0.1:1', INIT_FRONTEND_API_TOKENS: frontendToken },
  });
}, 60_000);
afterAll(async () => {
  await stack?.dispose();
  await sentinel?.dispose();
});

const frontend = () => httpClient(stack.url, { authorization: frontendToken });
const sdkSees = async (flag: string) => ((await frontend().get('/api/frontend')).body.toggles as { name: string }[] | undefined)?.some((toggle) => toggle.name === flag) ?? false;

/** The development snapshot's revision as stored on the Redis at `port` (0 when it holds none or cannot answer). */
async function storedRevision(port: number): Promise<number> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return Number(await redis.get(`${stack.isolation.namespace}:snapshot-revision:development`)) || 0;
  } catch {
    return 0;
  } finally {
    redis.disconnect();
  }
}

async function enabledFlag(name: string) {
  expect((await stack.admin.post(base, { name })).status).toBe(201);
  expect((await stack.admin.post(`${base}/${name}/environments/development/on`)).status).toBe(200);
}

describe('Redis through Sentinel', () => {
  it('finds the master through the sentinel and follows a failover to the promoted replica', async () => {
    await enabledFlag('before-failover');
    await eventually(() => sdkSees('before-failover'));
    const before = await eventually(async () => (await storedRevision(sentinel.masterPort)) || false);

    await sentinel.killMaster();
    // The edge answers from memory while the sentinel notices and promotes the replica.
    expect((await frontend().get('/api/frontend')).status).toBe(200);
    const monitor = new Redis({ port: Number(sentinel.sentinels.split(':')[1]), host: '127.0.0.1' });
    try {
      await eventually(async () => {
        const [, port] = (await monitor.call('SENTINEL', 'get-master-addr-by-name', sentinel.name)) as [string, string];
        return Number(port) === sentinel.replicaPort;
      }, { timeoutMs: 30_000, intervalMs: 200 });
    } finally {
      monitor.disconnect();
    }

    await enabledFlag('after-failover');
    await eventually(() => sdkSees('after-failover'), { timeoutMs: 20_000 });
    // The new snapshot went to the promoted replica: Bunting followed the sentinel's answer.
    const after = await eventually(async () => {
      const revision = await storedRevision(sentinel.replicaPort);
      return revision > before && revision;
    }, { timeoutMs: 20_000 });
    expect(after).toBeGreaterThan(before);
    expect((await frontend().get('/api/frontend')).status).toBe(200);
  }, 90_000);
});
