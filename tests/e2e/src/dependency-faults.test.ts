import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  isolate,
  loginAs,
  startPrivateNats,
  startPrivatePostgres,
  startPrivateRedis,
  startServiceProcess,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/** admin-api with a dependency down, stalled or missing at start: fast 503s with Retry-After, never a hang, crash or 500. */
let isolation: Isolation;
let postgres: Awaited<ReturnType<typeof startPrivatePostgres>>;
let nats: Awaited<ReturnType<typeof startPrivateNats>>;
let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
let env: Record<string, string>;
let adminApi: ServiceProcess;
const adminToken = '*:*.faults-admin';

beforeAll(async () => {
  isolation = await isolate();
  [postgres, nats, redis] = await Promise.all([startPrivatePostgres(), startPrivateNats(), startPrivateRedis()]);
  env = {
    ...isolation.env,
    DATABASE_URL: postgres.url.replace(/\/postgres$/, '/bunting'),
    NATS_URL: nats.url,
    REDIS_URL: redis.url,
    INIT_ADMIN_API_TOKENS: adminToken,
  };
}, 60_000);

afterAll(async () => {
  await adminApi?.stop();
  await Promise.all([postgres?.dispose(), nats?.dispose(), redis?.dispose()]);
  await isolation?.cleanup();
}, 60_000);

/** A request that must fail fast with 503, Retry-After and the error shape. */
async function expectFast503(request: () => Promise<Response>) {
  const started = performance.now();
  const response = await request();
  const took = performance.now() - started;
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBeTruthy();
  expect(await response.json()).toMatchObject({
    id: expect.any(String),
    name: 'ServiceUnavailableError',
    message: expect.any(String),
  });
  // Bounded: a command or connection timeout, not the whole outage.
  expect(took).toBeLessThan(5000);
}

describe('starting while NATS and Redis are down', () => {
  it('waits for them, saying what it awaits, answering 503 (even /health) until they come', async () => {
    await Promise.all([nats.stop(), redis.stop()]);
    adminApi = await startServiceProcess('admin-api', env, { waitFor: 'alive' });
    const health = await fetch(`${adminApi.url}/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('1');
    const waiting = await eventually(async () => {
      const ready = await fetch(`${adminApi.url}/ready`);
      const body = (await ready.json()) as { awaiting?: string };
      return ready.status === 503 && body.awaiting === 'nats' && body;
    });
    expect(waiting).toMatchObject({ health: 'BAD', starting: true });
    const refused = await fetch(`${adminApi.url}/api/admin/projects`, { headers: { authorization: adminToken } });
    expect(refused.status).toBe(503);
    // The deployment's ingress names itself: told 421, it sends the request (a write too) to another replica.
    const viaIngress = await fetch(`${adminApi.url}/api/admin/projects`, {
      method: 'POST',
      headers: { authorization: adminToken, 'x-bunting-ingress': '1' },
    });
    expect(viaIngress.status).toBe(421);
    expect(await viaIngress.json()).toMatchObject({ id: 'starting', name: 'ServiceUnavailableError' });
    await nats.start();
    await eventually(
      async () => ((await (await fetch(`${adminApi.url}/ready`)).json()) as { awaiting?: string }).awaiting === 'redis',
      { timeoutMs: 15_000 },
    );
    // Requests all through the hand-over from the starting server to the real one: each is answered by one or the
    // other, none is refused or cut (the listening socket is handed over, never closed and opened again).
    let handingOver = true;
    const cut: string[] = [];
    const answered = new Set<number>();
    const asking = (async () => {
      while (handingOver) {
        try {
          const reply = await fetch(`${adminApi.url}/api/admin/projects`, {
            headers: { authorization: adminToken, 'x-bunting-ingress': '1' },
          });
          answered.add(reply.status);
          await reply.arrayBuffer();
        } catch (error) {
          cut.push(String((error as Error).cause ?? error));
        }
      }
    })();
    await redis.start();
    await eventually(async () => (await fetch(`${adminApi.url}/ready`)).status === 200, { timeoutMs: 20_000 });
    handingOver = false;
    await asking;
    expect(cut).toEqual([]);
    expect([...answered].sort()).toEqual([200, 421]);
    expect((await fetch(`${adminApi.url}/health`)).status).toBe(200);
    expect((await httpClient(adminApi.url, { authorization: adminToken }).get('/api/admin/projects')).status).toBe(200);
  }, 60_000);
});

describe('Redis stalled or down', () => {
  it('answers sign-in and session requests with 503 within a bounded time, never 200 without a session', async () => {
    await httpClient(adminApi.url, { authorization: adminToken }).post('/api/admin/user-admin', {
      username: 'faulty',
      password: 'faulty-password-1',
      rootRole: 2,
    });
    const session = await loginAs(adminApi.url, 'faulty', 'faulty-password-1');
    expect((await session.get('/api/admin/projects')).status).toBe(200);
    const cookie = (
      await fetch(`${adminApi.url}/auth/simple/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'faulty', password: 'faulty-password-1' }),
      })
    ).headers
      .get('set-cookie')!
      .split(';')[0]!;
    const login = () =>
      fetch(`${adminApi.url}/auth/simple/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'faulty', password: 'faulty-password-1' }),
      });
    const withSession = () => fetch(`${adminApi.url}/api/admin/projects`, { headers: { cookie } });

    redis.pause();
    try {
      await expectFast503(login);
      await expectFast503(withSession);
    } finally {
      redis.resume();
    }
    await eventually(async () => (await withSession()).status === 200);

    await redis.stop();
    await expectFast503(login);
    await expectFast503(withSession);
    // API tokens need no Redis.
    expect((await httpClient(adminApi.url, { authorization: adminToken }).get('/api/admin/projects')).status).toBe(200);
    await redis.start();
    // Sessions were in the Redis that went away; a new sign-in works.
    await eventually(async () => (await login()).status === 200, { timeoutMs: 15_000 });
  }, 60_000);
});

describe('Postgres down', () => {
  it('answers admin reads and writes with 503, and works again when it returns', async () => {
    const admin = httpClient(adminApi.url, { authorization: adminToken });
    await postgres.stop();
    await expectFast503(() =>
      fetch(`${adminApi.url}/api/admin/projects`, {
        method: 'POST',
        headers: { authorization: adminToken, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'during-outage', name: 'x' }),
      }),
    );
    await expectFast503(() => fetch(`${adminApi.url}/api/admin/projects`, { headers: { authorization: adminToken } }));
    await postgres.start();
    await eventually(
      async () => (await admin.post('/api/admin/projects', { id: 'after-outage', name: 'After' })).status === 201,
      { timeoutMs: 20_000 },
    );
  }, 60_000);
});

describe('shutting down', () => {
  it('exits cleanly on SIGTERM while Redis is down', async () => {
    await redis.stop();
    expect(await adminApi.stop()).toBe(0);
    await redis.start();
  }, 30_000);
});
