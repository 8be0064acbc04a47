import { afterAll, beforeAll, it } from 'vitest';
import { isolate, startIngress, startServiceProcess, type Isolation, type ServiceProcess } from '@bunting/testing';
import { runFlagLifecycle } from './flag-lifecycle.ts';

/** The same story with admin-api and event-log as two processes behind a path-routing ingress. */
let isolation: Isolation;
let processes: ServiceProcess[] = [];
let ingress: Awaited<ReturnType<typeof startIngress>>;
const adminToken = '*:*.split-admin-token';

beforeAll(async () => {
  isolation = await isolate();
  const env = { ...isolation.env, INIT_ADMIN_API_TOKENS: adminToken };
  // admin-api first: it owns the credentials event-log asks about.
  processes.push(await startServiceProcess('admin-api', env));
  processes.push(await startServiceProcess('event-log', env));
  ingress = await startIngress(
    [
      { prefix: '/api/admin/events', upstream: processes[1]!.url },
      { prefix: '/api/admin/search/events', upstream: processes[1]!.url },
      { prefix: '/api/admin/event-creators', upstream: processes[1]!.url },
    ],
    processes[0]!.url,
  );
}, 60_000);

afterAll(async () => {
  await ingress?.close();
  for (const child of processes.reverse()) await child.stop();
  await isolation?.cleanup();
});

it('takes a flag through its whole life with admin-api and event-log in separate processes', async () => {
  await runFlagLifecycle(ingress.url, adminToken);
});
