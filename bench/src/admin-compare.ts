import { fileURLToPath } from 'node:url';
import { httpClient, isolate, startServiceProcess, type HttpClient } from '@bunting/test-stack';
import { checkout, removeCheckout, shortRevision } from './checkout.ts';
import { importScaleFlags } from './scale-flags.ts';
import { cpuTicks, quiet } from './quiet.ts';
import { median } from './sdk-edge.ts';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:admin-compare`: the admin API of two all-in-one processes side by side, one from this working tree
 * and one from another revision (`COMPARE_BASE`, default HEAD), each on its own database with `ADMIN_FLAGS` flags
 * (default 2,000 50 % rollouts) in the default project. In `COMPARE_ROUNDS` interleaved rounds (the order turns each
 * round) each process answers `ADMIN_REQUESTS` of each read below, one at a time, and switches one flag on and off
 * as many times; prints each target's median of the rounds' p50 and p90 per operation, and its CPU time a request.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const base = process.env.COMPARE_BASE ?? 'HEAD';
const rounds = Number(process.env.COMPARE_ROUNDS ?? 4);
const flags = Number(process.env.ADMIN_FLAGS ?? 2000);
const requests = Number(process.env.ADMIN_REQUESTS ?? 40);
const adminToken = '*:*.admin-compare';

type Operation = { name: string; run: (admin: HttpClient, index: number) => Promise<{ status: number }> };
const flagPath = '/api/admin/projects/default/features/scale-1';
const operations: Operation[] = [
  { name: 'project flags', run: (admin) => admin.get('/api/admin/projects/default/features') },
  { name: 'search, 50 a page', run: (admin) => admin.get('/api/admin/search/features?project=IS:default&limit=50') },
  { name: 'one flag', run: (admin) => admin.get(flagPath) },
  {
    name: 'flag on / off',
    run: (admin, index) => admin.post(`${flagPath}/environments/development/${index % 2 === 0 ? 'on' : 'off'}`, {}),
  },
];

async function startTarget(name: string, directory: string | undefined) {
  const isolation = await isolate();
  const server = await startServiceProcess(
    'all',
    { ...isolation.env, LOG_LEVEL: 'error', INIT_ADMIN_API_TOKENS: adminToken },
    directory === undefined ? {} : { root: directory },
  );
  const admin = httpClient(server.url, { authorization: adminToken });
  await importScaleFlags(admin, 0, flags);
  return { name, server, isolation, admin };
}

const revision = shortRevision(root, base);
const baseDirectory = checkout(root, base);
const targets = [await startTarget('working tree', undefined), await startTarget(revision, baseDirectory)];
try {
  await Promise.all(targets.map((target) => quiet(target.server.pid)));
  const samples = new Map(targets.map((target) => [target.name, operations.map(() => [] as number[][])]));
  const cpu = new Map(targets.map((target) => [target.name, [] as number[]]));
  // A warm-up round for each, so neither's first round includes its compilation.
  for (let pass = -1; pass < rounds; pass += 1) {
    const order = targets.map((_, index) => targets[(index + Math.max(pass, 0)) % targets.length]!);
    for (const target of order) {
      const before = cpuTicks(target.server.pid);
      for (const [index, operation] of operations.entries()) {
        const times: number[] = [];
        for (let count = 0; count < requests; count += 1) {
          const started = performance.now();
          const reply = await operation.run(target.admin, count);
          times.push(performance.now() - started);
          if (reply.status >= 300) throw new Error(`${target.name} ${operation.name}: ${reply.status}`);
        }
        if (pass >= 0) samples.get(target.name)![index]!.push(times);
      }
      const ticks = cpuTicks(target.server.pid) - before;
      if (pass >= 0) cpu.get(target.name)!.push((ticks * 10_000) / (requests * operations.length));
    }
  }
  const rows: Record<string, Record<string, string | number>> = {};
  for (const target of targets) {
    const row: Record<string, string | number> = {};
    for (const [index, operation] of operations.entries()) {
      const runs = samples.get(target.name)![index]!.map((times) => summarize(times));
      row[`${operation.name} p50 / p90 ms`] =
        `${round(median(runs.map((run) => run.p50)), 2)} / ${round(median(runs.map((run) => run.p90)), 2)}`;
    }
    row['CPU µs a request'] = Math.round(median(cpu.get(target.name)!));
    rows[target.name] = row;
  }
  console.log(`${flags} flags, ${requests} requests of each operation a round, ${rounds} rounds:`);
  console.table(rows);
} finally {
  for (const target of targets) {
    await target.server.stop();
    await target.isolation.cleanup();
  }
  removeCheckout(root, baseDirectory);
}
