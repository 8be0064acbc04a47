import { fileURLToPath } from 'node:url';
import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { configureFlags, median, p99AgainstCeiling, startCeiling } from './sdk-edge.ts';
import { load, type LoadResult } from './load.ts';
import { cpuTicks, quiet } from './quiet.ts';
import { wrkLoad } from './wrk.ts';
import { checkout, removeCheckout, shortRevision } from './checkout.ts';
import { importScaleFlags } from './scale-flags.ts';

/**
 * `npm run bench:compare`: /api/frontend on two frontend-api replicas side by side, one from this working tree and
 * one from another revision (`COMPARE_BASE`, default HEAD), with the bare route sending the same bytes, in
 * `COMPARE_ROUNDS` interleaved rounds (the order turns each round): this VM's speed drifts by tens of per cent
 * within a minute, so two separate runs do not compare. Prints each round and the median of each target: req/s,
 * p99 and CPU time per request. `PROFILE_LOAD=wrk`, `PROFILE_COUNTRY` and `BENCH_SECONDS` as for bench:profile.
 * `COMPARE_FLAGS=N` loads bench:scale's flags instead (N imported flags, each a 50 % rollout, 200 users).
 * `COMPARE_API=ofrep` drives OFREP's bulk evaluation (POST, autocannon) instead of /api/frontend; `ofrep-flag` its
 * evaluation of one flag (the first of the flags).
 * `COMPARE_NODE_OPTIONS` starts the working tree's replica with those Node options (with `COMPARE_BASE=HEAD`, this
 * compares the options alone). `COMPARE_RATE=N` with `PROFILE_LOAD=wrk` paces wrk to at most N requests a second.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const base = process.env.COMPARE_BASE ?? 'HEAD';
const rounds = Number(process.env.COMPARE_ROUNDS ?? 4);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const generator = process.env.PROFILE_LOAD === 'wrk' ? 'wrk' : 'autocannon';
const ofrepFlag = process.env.COMPARE_API === 'ofrep-flag';
const ofrep = process.env.COMPARE_API === 'ofrep' || ofrepFlag;
const scaleFlags = process.env.COMPARE_FLAGS === undefined ? undefined : Number(process.env.COMPARE_FLAGS);
// wrk pacing its connections to at most this many requests a second: the tail of a server that keeps up.
const rate = process.env.COMPARE_RATE === undefined ? undefined : Number(process.env.COMPARE_RATE);

const revision = shortRevision(root, base);
const baseDirectory = checkout(root, base);
const isolation = await isolate();
const adminToken = '*:*.compare-admin';
const frontendToken = 'default:development.compare-frontend';
const env = {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  INIT_FRONTEND_API_TOKENS: frontendToken,
};
const stack = await startServiceProcess('all', env);
try {
  const admin = httpClient(stack.url, { authorization: adminToken });
  if (scaleFlags === undefined) await configureFlags(admin);
  else await importScaleFlags(admin, 0, scaleFlags);
  // The all-in-one process done with the configuration's events before the replicas start and the load begins.
  await quiet(stack.pid);
  const working = await startServiceProcess('frontend-api', {
    ...env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${process.env.COMPARE_NODE_OPTIONS ?? ''}`.trim(),
  });
  const based = await startServiceProcess('frontend-api', env, { root: baseDirectory });
  const country = process.env.PROFILE_COUNTRY;
  const users =
    scaleFlags === undefined
      ? Array.from(
          { length: 1000 },
          (_, index) =>
            `/api/frontend?userId=user-${index}&properties[country]=${country ?? (index % 3 === 0 ? 'US' : 'NO')}&appName=bench`,
        )
      : Array.from({ length: 200 }, (_, index) => `/api/frontend?userId=u-${index}&appName=scale`);
  // OFREP: the same users as bulk evaluation contexts.
  const bodies = users.map((path) => {
    const query = new URLSearchParams(path.split('?')[1]);
    const country = query.get('properties[country]');
    return JSON.stringify({
      context: {
        targetingKey: query.get('userId'),
        appName: query.get('appName'),
        ...(country === null ? {} : { country }),
      },
    });
  });
  const ofrepHeaders = { authorization: frontendToken, 'content-type': 'application/json' };
  const ofrepPath = ofrepFlag
    ? `/ofrep/v1/evaluate/flags/${scaleFlags === undefined ? 'bench-flag-0' : 'scale-0'}`
    : '/ofrep/v1/evaluate/flags';
  const sampleOf = async (url: string) =>
    ofrep
      ? (await httpClient(url, ofrepHeaders).post(ofrepPath, bodies[1])).text
      : (await httpClient(url, { authorization: frontendToken }).get(users[1]!)).text;
  const sample = await sampleOf(working.url);
  // Two revisions compare only while they send the same answer (another shape or an error would be cheaper or dearer).
  const baseSample = await sampleOf(based.url);
  if (baseSample !== sample) {
    console.warn(`${revision} answers differently (${baseSample.length} against ${sample.length} bytes)`);
  }
  const ceiling = await startCeiling(sample);
  const drive = (url: string, paths: string[], headers?: Record<string, string>) =>
    generator === 'wrk'
      ? wrkLoad({ url, paths, headers, seconds, connections: 50, rate })
      : load({ url, paths, headers, seconds, connections: 50 });
  const edge = (url: string) =>
    ofrep
      ? load({
          url,
          paths: [ofrepPath],
          method: 'POST',
          bodies,
          headers: ofrepHeaders,
          seconds,
          connections: 50,
        })
      : drive(url, users, { authorization: frontendToken });
  const targets = [
    // A 10,000-flag answer as a string costs the bare route fresh memory each time (a fifth of a replica's rate).
    { name: 'ceiling', pid: ceiling.pid, run: () => drive(ceiling.url, [scaleFlags ? '/ceiling-buffer' : '/ceiling']) },
    { name: 'working tree', pid: working.pid, run: () => edge(working.url) },
    { name: revision, pid: based.pid, run: () => edge(based.url) },
  ];
  // A warm-up for each, so neither replica's first round includes its compilation.
  for (const target of targets) await target.run();
  const results = new Map<string, (LoadResult & { cpuUsPerRequest: number })[]>(
    targets.map((target) => [target.name, []]),
  );
  for (let round = 0; round < rounds; round += 1) {
    const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
    for (const target of order) {
      const before = cpuTicks(target.pid) * 10;
      const result = await target.run();
      const cpuUsPerRequest = Math.round(
        ((cpuTicks(target.pid) * 10 - before) * 1000) / (result.requestsPerSecond * seconds),
      );
      results.get(target.name)!.push({ ...result, cpuUsPerRequest });
    }
    console.log(
      `round ${round + 1}: ${targets
        .map((target) => {
          const last = results.get(target.name)!.at(-1)!;
          const failed = last.errors + last.non2xx;
          return `${target.name} ${last.requestsPerSecond} req/s p50/90/99 ${last.p50Ms}/${last.p90Ms}/${last.p99Ms} ms ${last.cpuUsPerRequest} µs${failed > 0 ? ` (${failed} failed)` : ''}`;
        })
        .join(' | ')}`,
    );
  }
  console.table(
    Object.fromEntries(
      targets.map((target) => {
        const runs = results.get(target.name)!;
        // The p99 against the ceiling's of the same round, as npm run bench takes it.
        const ceilingRuns = results.get('ceiling')!;
        const p99Ratio = p99AgainstCeiling(runs, ceilingRuns);
        return [
          target.name,
          {
            'req/s': median(runs.map((run) => run.requestsPerSecond)),
            'p99 ms': median(runs.map((run) => run.p99Ms)),
            'p99 / ceiling p99': Math.round(p99Ratio * 100) / 100,
            'CPU µs/request': median(runs.map((run) => run.cpuUsPerRequest)),
          },
        ];
      }),
    ),
  );
  ceiling.stop();
  await working.stop();
  await based.stop();
} finally {
  await stack.stop();
  await isolation.cleanup();
  removeCheckout(root, baseDirectory);
}
