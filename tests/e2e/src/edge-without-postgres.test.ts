import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  isolate,
  startServiceProcess,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/**
 * The SDK edge needs only NATS and Redis: a frontend-api process that cannot reach any Postgres serves and follows
 * changes. It runs built, as deployed (npm run build:edge).
 */
let isolation: Isolation;
const processes: ServiceProcess[] = [];
const adminToken = '*:*.edge-admin-token';
const frontendToken = 'default:development.edge-frontend-token';
const clientToken = 'default:development.edge-client-token';

beforeAll(async () => {
  isolation = await isolate();
  const env = {
    ...isolation.env,
    INIT_ADMIN_API_TOKENS: adminToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
    INIT_CLIENT_API_TOKENS: clientToken,
  };
  processes.push(await startServiceProcess('admin-api', env));
  // Port 9 (discard) refuses connections: any attempt to use Postgres would fail.
  processes.push(
    await startServiceProcess(
      'frontend-api',
      { ...env, DATABASE_URL: 'postgres://root@127.0.0.1:9/unreachable' },
      { built: true },
    ),
  );
}, 60_000);

afterAll(async () => {
  for (const child of processes.reverse()) await child.stop();
  await isolation?.cleanup();
});

it('serves /api/frontend and /api/client without Postgres, and follows what admin-api publishes', async () => {
  const [adminApi, edge] = processes as [ServiceProcess, ServiceProcess];
  const admin = httpClient(adminApi.url, { authorization: adminToken });
  const frontend = httpClient(edge.url, { authorization: frontendToken });
  const client = httpClient(edge.url, { authorization: clientToken });

  const ready = await httpClient(edge.url).get('/ready');
  expect(ready.status).toBe(200);
  expect(ready.body.checks.map((check: { name: string }) => check.name)).not.toContain('postgres');

  expect((await admin.post('/api/admin/projects/default/features', { name: 'no-database-needed' })).status).toBe(201);
  expect(
    (await admin.post('/api/admin/projects/default/features/no-database-needed/environments/development/on')).status,
  ).toBe(200);
  const on = await eventually(async () => {
    const reply = await frontend.get('/api/frontend?userId=1');
    return reply.body.toggles?.some((toggle: { name: string }) => toggle.name === 'no-database-needed') && reply;
  });
  expect(on.status).toBe(200);
  const features = await client.get('/api/client/features');
  expect(features.status).toBe(200);
  expect(
    features.body.features.find((feature: { name: string }) => feature.name === 'no-database-needed'),
  ).toMatchObject({ enabled: true });

  expect(
    (await admin.post('/api/admin/projects/default/features/no-database-needed/environments/development/off')).status,
  ).toBe(200);
  await eventually(async () => {
    const reply = await frontend.get('/api/frontend?userId=1');
    return (
      reply.status === 200 &&
      !reply.body.toggles.some((toggle: { name: string }) => toggle.name === 'no-database-needed')
    );
  });
});
