import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, isolate, startServiceProcess, type Isolation, type ServiceProcess } from '@bunting/test-stack';

/**
 * Two frontend-api replicas in their own processes: a change made through the admin API is visible on both well
 * within a second, each applying admin-api's delta to what it holds, at the same revision.
 */
let isolation: Isolation;
const processes: ServiceProcess[] = [];
const adminToken = '*:*.propagation-admin';
const frontendToken = 'default:development.propagation-frontend';
const clientToken = 'default:development.propagation-client';

beforeAll(async () => {
  isolation = await isolate();
  const env = {
    ...isolation.env,
    INIT_ADMIN_API_TOKENS: adminToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
    INIT_CLIENT_API_TOKENS: clientToken,
  };
  processes.push(await startServiceProcess('admin-api', env));
  processes.push(await startServiceProcess('frontend-api', env));
  processes.push(await startServiceProcess('frontend-api', env));
}, 90_000);

afterAll(async () => {
  for (const child of processes.reverse()) await child.stop();
  await isolation?.cleanup();
});

/** Revisions a replica installed since it started, by how they came (see bunting_snapshot_installs_total). */
async function installs(url: string, how: 'whole' | 'delta' | 'kept'): Promise<number> {
  const text = (await httpClient(url).get('/internal-backstage/prometheus')).text;
  const line = text
    .split('\n')
    .find((entry) => entry.startsWith('bunting_snapshot_installs_total{') && entry.includes(`how="${how}"`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

it('shows an admin change on every frontend-api replica within a second', async () => {
  const admin = httpClient(processes[0]!.url, { authorization: adminToken });
  const replicas = processes.slice(1).map((child) => httpClient(child.url, { authorization: frontendToken }));
  await admin.post('/api/admin/projects/default/features', { name: 'propagated' });
  // With a strategy already there, each switch below is one event, so one new revision.
  await admin.post('/api/admin/projects/default/features/propagated/environments/development/strategies', {
    name: 'default',
    parameters: {},
    constraints: [],
  });
  for (const replica of replicas) expect((await replica.get('/api/frontend')).body.toggles).toEqual([]);

  const delays: number[] = [];
  for (const [round, enabled] of [
    [0, true],
    [1, false],
    [2, true],
  ] as const) {
    const action = enabled ? 'on' : 'off';
    const changed = await admin.post(
      `/api/admin/projects/default/features/propagated/environments/development/${action}`,
    );
    expect(changed.status, `round ${round}`).toBe(200);
    const start = Date.now();
    await Promise.all(
      replicas.map(async (replica) => {
        for (;;) {
          const names = (await replica.get('/api/frontend')).body.toggles.map(
            (toggle: { name: string }) => toggle.name,
          );
          if (names.includes('propagated') === enabled) return;
          if (Date.now() - start > 1000) throw new Error(`replica did not see the change within 1 s (round ${round})`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }),
    );
    delays.push(Date.now() - start);
  }
  expect(Math.max(...delays)).toBeLessThan(1000);
  // Each switch came to both replicas as a delta of the feed (one flag), at admin-api's revision: they agree on it.
  const deltas = await Promise.all(processes.slice(1).map((child) => installs(child.url, 'delta')));
  expect(Math.min(...deltas)).toBeGreaterThanOrEqual(3);
  const revisions = await Promise.all(
    processes
      .slice(1)
      .map(
        async (child) =>
          (await httpClient(child.url, { authorization: clientToken }).get('/api/client/features')).body?.meta
            ?.revisionId as number | undefined,
      ),
  );
  expect(new Set(revisions).size).toBe(1);
}, 30_000);
