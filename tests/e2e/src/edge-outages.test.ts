import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  isolate,
  startPrivateNats,
  startPrivatePostgres,
  startPrivateRedis,
  startServiceProcess,
  type HttpClient,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/**
 * The SDK edge keeps serving flags from memory while Postgres, NATS, Redis (each in turn, then all three) or
 * admin-api are down, against private servers this file stops and starts. Latencies are printed, not asserted.
 */
let isolation: Isolation;
let postgres: Awaited<ReturnType<typeof startPrivatePostgres>>;
let nats: Awaited<ReturnType<typeof startPrivateNats>>;
let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
let env: Record<string, string>;
let adminApi: ServiceProcess;
let edge: ServiceProcess;
const extra: ServiceProcess[] = [];
const adminToken = '*:*.outage-admin';
const frontendToken = 'default:development.outage-frontend';
const clientToken = 'default:development.outage-client';
let admin: HttpClient;
let revokedToken: string;
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  isolation = await isolate();
  [postgres, nats, redis] = await Promise.all([startPrivatePostgres(), startPrivateNats(), startPrivateRedis()]);
  env = {
    ...isolation.env,
    DATABASE_URL: postgres.url.replace(/\/postgres$/, '/bunting'),
    NATS_URL: nats.url,
    REDIS_URL: redis.url,
    INIT_ADMIN_API_TOKENS: adminToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
    INIT_CLIENT_API_TOKENS: clientToken,
  };
  adminApi = await startServiceProcess('admin-api', env);
  edge = await startServiceProcess('frontend-api', env);
  admin = httpClient(adminApi.url, { authorization: adminToken });
  expect((await admin.post(base, { name: 'always-on' })).status).toBe(201);
  expect((await admin.post(`${base}/always-on/environments/development/on`)).status).toBe(200);
  const revoked = await admin.post('/api/admin/api-tokens', {
    tokenName: 'revoked',
    type: 'client',
    environment: 'development',
  });
  revokedToken = revoked.body.secret;
  await eventually(
    async () =>
      (await httpClient(edge.url, { authorization: revokedToken }).get('/api/client/features')).status === 200,
  );
  expect((await admin.delete(`/api/admin/api-tokens/${encodeURIComponent(revokedToken)}`)).status).toBe(200);
  await eventually(async () => (await serves(edge)).ok);
}, 120_000);

afterAll(async () => {
  for (const child of [...extra, edge, adminApi]) await child?.stop();
  await Promise.all([postgres?.dispose(), nats?.dispose(), redis?.dispose()]);
  await isolation?.cleanup();
}, 60_000);

/** What an SDK sees from one replica: every route answers 200 with the flag on, a revoked token stays refused. */
async function serves(target: ServiceProcess, flag = 'always-on') {
  const frontend = await httpClient(target.url, { authorization: frontendToken }).get('/api/frontend?userId=someone');
  const client = httpClient(target.url, { authorization: clientToken });
  const features = await client.get('/api/client/features');
  const delta = await client.get('/api/client/delta');
  const revoked = await httpClient(target.url, { authorization: revokedToken }).get('/api/client/features');
  const stream = await fetch(`${target.url}/api/client/streaming`, {
    headers: { authorization: clientToken },
    signal: AbortSignal.timeout(3000),
  });
  const reader = stream.body!.getReader();
  const connected = new TextDecoder().decode((await reader.read()).value ?? new Uint8Array());
  await reader.cancel();
  return {
    ok:
      frontend.status === 200 &&
      features.status === 200 &&
      delta.status === 200 &&
      stream.status === 200 &&
      connected.includes('unleash-connected') &&
      revoked.status === 401 &&
      frontend.body.toggles.some((toggle: { name: string }) => toggle.name === flag),
    statuses: [frontend.status, features.status, delta.status, stream.status, revoked.status],
  };
}

/** Sequential /api/frontend requests: p50 and p99 in ms, and how many answered 200. */
async function latency(target: ServiceProcess, requests = 300) {
  const frontend = httpClient(target.url, { authorization: frontendToken });
  const times: number[] = [];
  let ok = 0;
  for (let index = 0; index < requests; index += 1) {
    const started = performance.now();
    if ((await frontend.get(`/api/frontend?userId=u${index}`)).status === 200) ok += 1;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    Math.round(times[Math.min(times.length - 1, Math.floor(times.length * share))]! * 100) / 100;
  return { ok, requests, p50: at(0.5), p99: at(0.99) };
}

const figures: Record<string, unknown> = {};

describe('the SDK edge while its dependencies are down', () => {
  it('measures the healthy baseline', async () => {
    figures.baseline = await latency(edge);
    expect((figures.baseline as { ok: number }).ok).toBe(300);
  });

  it('keeps answering while Postgres is down', async () => {
    await postgres.stop();
    expect((await serves(edge)).statuses).toEqual([200, 200, 200, 200, 401]);
    figures.postgresDown = await latency(edge);
    await postgres.start();
  }, 60_000);

  it('keeps answering while NATS is down, and a change made meanwhile arrives after', async () => {
    await nats.stop();
    expect((await serves(edge)).statuses).toEqual([200, 200, 200, 200, 401]);
    figures.natsDown = await latency(edge);
    // admin-api accepts the change into its outbox; it reaches the edge once NATS is back.
    expect((await admin.post(base, { name: 'made-during-nats-outage' })).status).toBe(201);
    expect((await admin.post(`${base}/made-during-nats-outage/environments/development/on`)).status).toBe(200);
    await nats.start();
    await eventually(async () => (await serves(edge, 'made-during-nats-outage')).ok, { timeoutMs: 30_000 });
  }, 60_000);

  it('keeps answering while Redis is down, and a change made meanwhile arrives after', async () => {
    await redis.stop();
    expect((await serves(edge)).statuses).toEqual([200, 200, 200, 200, 401]);
    figures.redisDown = await latency(edge);
    expect((await admin.post(base, { name: 'made-during-redis-outage' })).status).toBe(201);
    expect((await admin.post(`${base}/made-during-redis-outage/environments/development/on`)).status).toBe(200);
    await redis.start();
    await eventually(async () => (await serves(edge, 'made-during-redis-outage')).ok, { timeoutMs: 30_000 });
  }, 60_000);

  it('keeps answering with Postgres, NATS and Redis all down', async () => {
    await Promise.all([postgres.stop(), nats.stop(), redis.stop()]);
    expect((await serves(edge)).statuses).toEqual([200, 200, 200, 200, 401]);
    figures.allDown = await latency(edge);
    const ready = await httpClient(edge.url).get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.health).toBe('DEGRADED');
    await Promise.all([postgres.start(), nats.start(), redis.start()]);
    figures.afterRecovery = await eventually(async () => (await serves(edge)).ok && latency(edge), {
      timeoutMs: 30_000,
    });
    console.log('SDK edge /api/frontend during outages (sequential requests, ms):', JSON.stringify(figures));
  }, 90_000);

  it('starts a replica from the configuration feed alone while admin-api is down; one with nothing answers 503 at once', async () => {
    const fresh = await admin.post('/api/admin/api-tokens', {
      tokenName: 'after-recovery',
      type: 'frontend',
      environment: 'development',
    });
    const flagIs = async (on: boolean) =>
      (await serves(edge)).statuses[0] === 200 &&
      (await httpClient(edge.url, { authorization: frontendToken }).get('/api/frontend')).body.toggles.some(
        (toggle: { name: string }) => toggle.name === 'always-on',
      ) === on;
    expect((await admin.post(`${base}/always-on/environments/development/off`)).status).toBe(200);
    await eventually(() => flagIs(false));
    expect((await admin.post(`${base}/always-on/environments/development/on`)).status).toBe(200);
    await eventually(() => flagIs(true));
    await eventually(
      async () =>
        (await httpClient(edge.url, { authorization: fresh.body.secret }).get('/api/frontend')).status === 200,
    );
    await adminApi.stop();
    const replica = await startServiceProcess('frontend-api', env);
    extra.push(replica);
    expect((await serves(replica)).statuses).toEqual([200, 200, 200, 200, 401]);
    expect((await httpClient(replica.url, { authorization: fresh.body.secret }).get('/api/frontend')).status).toBe(200);

    const empty = await startServiceProcess(
      'frontend-api',
      { ...env, BUNTING_NAMESPACE: `${isolation.namespace}-empty` },
      { waitFor: 'serving' },
    );
    extra.push(empty);
    const started = performance.now();
    const refused = await httpClient(empty.url, { authorization: frontendToken }).get('/api/frontend');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // At once: before, a replica waited out a 3 s (credentials) or 10 s (snapshot) timeout first.
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await httpClient(empty.url).get('/ready')).status).toBe(503);
  }, 90_000);
});
