import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { httpClient, isolate, startServiceProcess, type HttpClient } from '@bunting/test-stack';
import { checkout, removeCheckout } from './checkout.ts';
import { quiet } from './quiet.ts';
import { importScaleFlags, scale0Answers, userInsideScale0 } from './scale-flags.ts';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:propagation`: one flag's change among many (`PROPAGATION_FLAGS`, default 10,000, each a 50 % rollout)
 * until the all-in-one process and a frontend-api replica of its own answer it, as a user inside the rollout, for
 * `PROPAGATION_TOGGLES` toggles (default 40) one after the other; the admin call's own time beside it. With
 * `COMPARE_BASE` (a revision), runs of that revision and of the working tree alternate (`PROPAGATION_RUNS` each,
 * default 2), each on a stack of its own: this VM's speed drifts too much for separate runs to compare.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const flags = Number(process.env.PROPAGATION_FLAGS ?? 10_000);
const toggles = Number(process.env.PROPAGATION_TOGGLES ?? 40);
const runs = Number(process.env.PROPAGATION_RUNS ?? (process.env.COMPARE_BASE ? 2 : 1));
const adminToken = '*:*.propagation-admin';
const frontendToken = 'default:development.propagation-frontend';
const clientToken = 'default:development.propagation-client';

/** ms from `start` until scale-0's answer for `user` on `frontend` is `enabled`. */
async function seen(frontend: HttpClient, user: string, enabled: boolean, start: number): Promise<number> {
  await scale0Answers(frontend, user, enabled);
  return performance.now() - start;
}

async function run(label: string, checkoutRoot: string | undefined) {
  const isolation = await isolate();
  const options = checkoutRoot === undefined ? {} : { root: checkoutRoot };
  const env = { ...isolation.env, LOG_LEVEL: 'error', INIT_ADMIN_API_TOKENS: adminToken, INIT_FRONTEND_API_TOKENS: frontendToken, INIT_CLIENT_API_TOKENS: clientToken };
  const server = await startServiceProcess('all', env, options);
  const replica = await startServiceProcess('frontend-api', { ...isolation.env, LOG_LEVEL: 'error' }, options);
  try {
    const admin = httpClient(server.url, { authorization: adminToken });
    await importScaleFlags(admin, 0, flags);
    const targets = [server, replica].map((process) => ({ frontend: httpClient(process.url, { authorization: frontendToken }), client: httpClient(process.url, { authorization: clientToken }) }));
    for (const target of targets) {
      while (!(await target.client.get('/api/client/features')).text.includes(`"scale-${flags - 1}"`)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The import's events (the event log, insights) done first, as a change would usually find the stack.
    await quiet(server.pid);
    const user = await userInsideScale0(targets[0]!.frontend);
    const samples = { admin: [] as number[], allInOne: [] as number[], replica: [] as number[] };
    for (let index = 0; index < toggles; index += 1) {
      const enabled = index % 2 === 1;
      const start = performance.now();
      await admin.post(`/api/admin/projects/default/features/scale-0/environments/development/${enabled ? 'on' : 'off'}`);
      samples.admin.push(performance.now() - start);
      const [allInOne, onReplica] = await Promise.all(targets.map((target) => seen(target.frontend, user, enabled, start)));
      samples.allInOne.push(allInOne!);
      samples.replica.push(onReplica!);
    }
    const row = (values: number[]) => { const summary = summarize(values); return `${round(summary.p50)} / ${round(summary.p90)} / ${round(summary.max)}`; };
    return { code: label, 'admin call p50 / p90 / max ms': row(samples.admin), 'all-in-one p50 / p90 / max ms': row(samples.allInOne), 'replica p50 / p90 / max ms': row(samples.replica) };
  } finally {
    await replica.stop();
    await server.stop();
    await isolation.cleanup();
  }
}

const base = process.env.COMPARE_BASE;
const baseDirectory = base === undefined ? undefined : checkout(root, base);
try {
  const rows: Record<string, string>[] = [];
  const baseLabel = base === undefined ? '' : execFileSync('git', ['rev-parse', '--short', base], { cwd: root, encoding: 'utf8' }).trim();
  for (let index = 0; index < runs; index += 1) {
    if (baseDirectory !== undefined) rows.push(await run(baseLabel, baseDirectory));
    rows.push(await run('working tree', undefined));
  }
  console.log(`\nOne flag's change among ${flags} flags, ${toggles} toggles a run, from the admin request, as a user inside the rollout:`);
  console.table(rows);
} finally {
  if (baseDirectory !== undefined) removeCheckout(root, baseDirectory);
}
