import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  isolate,
  startPrivateNats,
  startServiceProcess,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/**
 * Two signals processes share one Redis: the 1 request per second limit holds across them. A NATS outage
 * loses no accepted signal: it is stored with its outbox message and acted on once NATS is back.
 */
let isolation: Isolation;
let nats: Awaited<ReturnType<typeof startPrivateNats>>;
const processes: ServiceProcess[] = [];
const adminToken = '*:*.signals-e2e-admin';

beforeAll(async () => {
  nats = await startPrivateNats();
  isolation = await isolate();
  const env = { ...isolation.env, NATS_URL: nats.url, INIT_ADMIN_API_TOKENS: adminToken };
  const adminApi = await startServiceProcess('admin-api', env);
  processes.push(adminApi);
  processes.push(await startServiceProcess('signals', { ...env, ADMIN_API_URL: adminApi.url }));
  processes.push(await startServiceProcess('signals', { ...env, ADMIN_API_URL: adminApi.url }));
}, 90_000);

afterAll(async () => {
  await nats?.start().catch(() => undefined);
  for (const child of processes.reverse()) await child.stop();
  await isolation?.cleanup();
  await nats?.dispose();
});

it('rate-limits across replicas and loses no signal while NATS is down', async () => {
  const [adminApi, signalsA, signalsB] = processes as [ServiceProcess, ServiceProcess, ServiceProcess];
  const admin = httpClient(adminApi.url, { authorization: adminToken });
  const signalsAdmin = httpClient(signalsA.url, { authorization: adminToken });
  await admin.post('/api/admin/projects/default/features', { name: 'kill-switch' });
  const account = await admin.post('/api/admin/service-account', { username: 'signal-bot', rootRole: 2 });
  const endpoint = await signalsAdmin.post('/api/admin/signal-endpoints', { name: 'deploys' });
  const secret = (await signalsAdmin.post(`/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'ci' }))
    .body.token;
  const actionSet = await signalsAdmin.post('/api/admin/projects/default/actions', {
    name: 'Switch on after deploy',
    actorId: account.body.id,
    match: {
      source: 'signal-endpoint',
      sourceId: endpoint.body.id,
      payload: { event: { operator: 'STR_STARTS_WITH', values: ['deploy'] } },
    },
    actions: [
      {
        action: 'ENABLE_FEATURE',
        executionParams: { project: 'default', environment: 'production', featureName: 'kill-switch' },
      },
    ],
  });
  expect(actionSet.status).toBe(201);

  const senders = [signalsA, signalsB].map((process) => httpClient(process.url, { authorization: `Bearer ${secret}` }));
  const burst = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      senders[index % 2]!.post('/api/signal-endpoint/deploys', { event: 'noise' }),
    ),
  );
  expect(burst.filter((reply) => reply.status === 202)).toHaveLength(1);
  expect(burst.filter((reply) => reply.status === 429)).toHaveLength(9);

  await nats.stop();
  // The burst's window may still be open: a refused (429) signal stores nothing, so it is sent until there is room.
  const duringOutage = await eventually(
    async () => {
      const reply = await senders[1]!.post('/api/signal-endpoint/deploys', { event: 'deployed', version: '2.0.0' });
      return reply.status !== 429 && reply;
    },
    { intervalMs: 100 },
  );
  expect(duringOutage.status).toBe(202);
  await nats.start();

  const isOn = async () => {
    const feature = await admin.get('/api/admin/projects/default/features/kill-switch');
    return (
      feature.body.environments?.find((environment: { name: string }) => environment.name === 'production')?.enabled ===
      true
    );
  };
  await eventually(isOn, { timeoutMs: 30_000 });
  const stored = (await signalsAdmin.get(`/api/admin/signal-endpoints/${endpoint.body.id}/signals`)).body
    .signalEndpointSignals;
  expect(stored.map((signal: { payload: { event: string } }) => signal.payload.event)).toEqual(['deployed', 'noise']);
}, 90_000);
