import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  httpClient,
  isolate,
  startCountingProxy,
  startServiceProcess,
  type HttpClient,
  type Traffic,
} from '@bunting/test-stack';
import { checkout, removeCheckout, shortRevision } from './checkout.ts';
import { quiet } from './quiet.ts';
import { importScaleFlags, scale0Answers, userInsideScale0 } from './scale-flags.ts';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:propagation`: one flag's change among many (`PROPAGATION_FLAGS`, default 10,000, each a 50 % rollout)
 * until the all-in-one process and a frontend-api replica of its own answer it, as a user inside the rollout, for
 * `PROPAGATION_TOGGLES` toggles (default 40) one after the other; the admin call's own time beside it. The replica
 * talks to NATS and Redis through counting proxies, so each run also says what the edge pays: the bytes and round
 * trips of a change, the time and bytes a replica needs to start (the flags in `PROPAGATION_ENVIRONMENTS`
 * environments, default 3), its memory, and what granting a user access to a project costs it. With `COMPARE_BASE`
 * (a revision), runs of that revision and of the working tree alternate (`PROPAGATION_RUNS` each, default 2), each on a
 * stack of its own: this VM's speed drifts too much for separate runs to compare.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const flags = Number(process.env.PROPAGATION_FLAGS ?? 10_000);
const toggles = Number(process.env.PROPAGATION_TOGGLES ?? 40);
const environments = ['development', 'production', 'staging'].slice(
  0,
  Number(process.env.PROPAGATION_ENVIRONMENTS ?? 3),
);
const runs = Number(process.env.PROPAGATION_RUNS ?? (process.env.COMPARE_BASE ? 2 : 1));
const adminToken = '*:*.propagation-admin';
const frontendToken = 'default:development.propagation-frontend';
const clientTokens = environments.map((environment) => `default:${environment}.propagation-client`);

/** ms from `start` until scale-0's answer for `user` on `frontend` is `enabled`. */
async function seen(frontend: HttpClient, user: string, enabled: boolean, start: number): Promise<number> {
  await scale0Answers(frontend, user, enabled);
  return performance.now() - start;
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const kib = (bytes: number) => Math.round(bytes / 1024);
const sum = (a: Traffic, b: Traffic): Traffic => ({
  toServer: a.toServer + b.toServer,
  toClient: a.toClient + b.toClient,
  roundTrips: a.roundTrips + b.roundTrips,
});

/** Revisions the replica installed, all kinds together (bunting_snapshot_installs_total). */
async function installs(url: string): Promise<number> {
  const text = (await httpClient(url).get('/internal-backstage/prometheus')).text;
  return text
    .split('\n')
    .filter((line) => line.startsWith('bunting_snapshot_installs_total{'))
    .reduce((total, line) => total + Number(line.split(' ').at(-1)), 0);
}

async function run(label: string, checkoutRoot: string | undefined) {
  const isolation = await isolate();
  const options = checkoutRoot === undefined ? {} : { root: checkoutRoot };
  const env = {
    ...isolation.env,
    LOG_LEVEL: 'error',
    INIT_ADMIN_API_TOKENS: adminToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
    INIT_CLIENT_API_TOKENS: clientTokens.join(','),
  };
  const server = await startServiceProcess('all', env, options);
  const [nats, redis] = await Promise.all([
    startCountingProxy(Number(new URL(isolation.env.NATS_URL ?? 'nats://127.0.0.1:4222').port || 4222)),
    startCountingProxy(6379),
  ]);
  const traffic = () => sum(nats.traffic(), redis.traffic());
  const reset = () => {
    nats.reset();
    redis.reset();
  };
  let replica: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  try {
    const admin = httpClient(server.url, { authorization: adminToken });
    if (environments.includes('staging')) {
      await admin.post('/api/admin/environments', { name: 'staging', type: 'test' });
      await admin.post('/api/admin/projects/default/environments', { environment: 'staging' });
    }
    for (const environment of environments) await importScaleFlags(admin, 0, flags, environment);
    const allInOne = httpClient(server.url, { authorization: clientTokens[0]! });
    while (!(await allInOne.get('/api/client/features')).text.includes(`"scale-${flags - 1}"`))
      await new Promise((resolve) => setTimeout(resolve, 50));
    await quiet(server.pid);

    // A replica started now: until it answers every environment's flags, through the proxies.
    reset();
    const started = performance.now();
    replica = await startServiceProcess(
      'frontend-api',
      {
        ...isolation.env,
        LOG_LEVEL: 'error',
        NATS_URL: `nats://127.0.0.1:${nats.port}`,
        REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      },
      { ...options, waitFor: 'serving' },
    );
    await Promise.all(
      clientTokens.map(async (token) => {
        const client = httpClient(replica!.url, { authorization: token });
        while (
          !(await client.get('/api/client/features').catch(() => ({ text: '' }))).text.includes(`"scale-${flags - 1}"`)
        )
          await new Promise((resolve) => setTimeout(resolve, 20));
      }),
    );
    const startMs = performance.now() - started;
    const startTraffic = traffic();
    const startRss = rssMiB(replica.pid);
    await quiet(replica.pid);

    const targets = [server, replica].map((process) => httpClient(process.url, { authorization: frontendToken }));
    const user = await userInsideScale0(targets[0]!);
    const samples = { admin: [] as number[], allInOne: [] as number[], replica: [] as number[] };
    reset();
    for (let index = 0; index < toggles; index += 1) {
      const enabled = index % 2 === 1;
      const start = performance.now();
      await admin.post(
        `/api/admin/projects/default/features/scale-0/environments/development/${enabled ? 'on' : 'off'}`,
      );
      samples.admin.push(performance.now() - start);
      const [onAllInOne, onReplica] = await Promise.all(targets.map((target) => seen(target, user, enabled, start)));
      samples.allInOne.push(onAllInOne!);
      samples.replica.push(onReplica!);
    }
    await quiet(replica.pid);
    const perChange = traffic();

    // A user given access to the project: nothing an SDK sees changes.
    const person = await admin.post('/api/admin/user-admin', {
      username: `granted-${Date.now()}`,
      rootRole: 'Viewer',
      email: `granted-${Date.now()}@example.com`,
    });
    // What the replica exchanges anyway (its readers' checks) over the same time, then with the grant.
    const window = async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await quiet(replica!.pid);
    };
    reset();
    const idleStart = performance.now();
    await window();
    const idle = traffic().toClient / (performance.now() - idleStart);
    const before = await installs(replica.url);
    reset();
    const grantStart = performance.now();
    await admin.post('/api/admin/projects/default/access', { roles: [4], users: [person.body.id] });
    await window();
    const grant = { ...traffic(), toClient: Math.max(0, traffic().toClient - idle * (performance.now() - grantStart)) };
    const grantInstalls = (await installs(replica.url)) - before;

    const row = (values: number[]) => {
      const summary = summarize(values);
      return `${round(summary.p50)} / ${round(summary.p99)}`;
    };
    return {
      code: label,
      'admin call p50 / p99 ms': row(samples.admin),
      'all-in-one p50 / p99 ms': row(samples.allInOne),
      'replica p50 / p99 ms': row(samples.replica),
      'replica per change: KiB in / out, round trips': `${round(perChange.toClient / 1024 / toggles)} / ${round(perChange.toServer / 1024 / toggles)}, ${round(perChange.roundTrips / toggles)}`,
      [`replica start (${environments.length} env.): ms, KiB in, round trips`]: `${Math.round(startMs)}, ${kib(startTraffic.toClient)}, ${startTraffic.roundTrips}`,
      'replica RSS MiB after start / toggles': `${Math.round(startRss)} / ${Math.round(rssMiB(replica.pid))}`,
      'project access grant: KiB in beyond idle, installs': `${kib(grant.toClient)}, ${grantInstalls}`,
    };
  } finally {
    await replica?.stop();
    await server.stop();
    await Promise.all([nats.close(), redis.close()]);
    await isolation.cleanup();
  }
}

const base = process.env.COMPARE_BASE;
const baseDirectory = base === undefined ? undefined : checkout(root, base);
try {
  const rows: Record<string, string>[] = [];
  const baseLabel = base === undefined ? '' : shortRevision(root, base);
  for (let index = 0; index < runs; index += 1) {
    if (baseDirectory !== undefined) rows.push(await run(baseLabel, baseDirectory));
    rows.push(await run('working tree', undefined));
  }
  console.log(
    `\nOne flag's change among ${flags} flags (in ${environments.length} environments), ${toggles} toggles a run, from the admin request, as a user inside the rollout:`,
  );
  console.table(rows);
} finally {
  if (baseDirectory !== undefined) removeCheckout(root, baseDirectory);
}
