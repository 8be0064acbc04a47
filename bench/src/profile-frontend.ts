import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { configureFlags, startCeiling } from './sdk-edge.ts';
import { readFileSync } from 'node:fs';
import { load, type LoadResult } from './load.ts';
import { wrkLoad } from './wrk.ts';

function cpuOf(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10, minorFaults: Number(fields[7]) };
}

/** A load run with the serving process's CPU time per request (user and system, from /proc) beside it. */
async function measured(pid: number, run: () => Promise<LoadResult>) {
  const before = cpuOf(pid);
  const result = await run();
  const after = cpuOf(pid);
  const requests = result.requestsPerSecond * seconds;
  return {
    ...result,
    userUsPerRequest: Math.round(((after.user - before.user) * 1000) / requests),
    systemUsPerRequest: Math.round(((after.system - before.system) * 1000) / requests),
    minorFaultsPerRequest: Math.round(((after.minorFaults - before.minorFaults) / requests) * 100) / 100,
  };
}

/**
 * Load on GET /api/frontend against a frontend-api replica started with `PROFILE_NODE_OPTIONS` (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`; its stdout, e.g. `--trace-gc`, goes to the file `PROFILE_LOG`), for finding where a request's time goes, beside the bare route sending
 * the same bytes. `PROFILE_LOAD=wrk` drives both with wrk instead of autocannon. Not part of `npm run bench`.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const generator = process.env.PROFILE_LOAD === 'wrk' ? 'wrk' : 'autocannon';
const isolation = await isolate();
const adminToken = '*:*.bench-admin';
const frontendToken = 'default:development.bench-frontend';
const env = {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  INIT_FRONTEND_API_TOKENS: frontendToken,
};
const stack = await startServiceProcess('all', env);
await configureFlags(httpClient(stack.url, { authorization: adminToken }));
// A frontend-api replica of its own, started after the configuration so its profile holds only the load.
const server = await startServiceProcess(
  'frontend-api',
  { ...env, NODE_OPTIONS: process.env.PROFILE_NODE_OPTIONS ?? '' },
  { logFile: process.env.PROFILE_LOG },
);
const country = process.env.PROFILE_COUNTRY;
const users = Array.from(
  { length: 1000 },
  (_, index) =>
    `${process.env.PROFILE_PATH ?? '/api/frontend'}?userId=user-${index}&properties[country]=${country ?? (index % 3 === 0 ? 'US' : 'NO')}&appName=bench`,
);
const sample = await httpClient(server.url, { authorization: frontendToken }).get(users[1]!);
const ceiling = await startCeiling(sample.text);
const drive = (url: string, paths: string[], headers?: Record<string, string>) =>
  generator === 'wrk'
    ? wrkLoad({ url, paths, headers, seconds, connections: 50 })
    : load({ url, paths, headers, seconds, connections: 50 });
try {
  const rows: Record<string, unknown> = {};
  rows[`ceiling (${generator})`] = await measured(ceiling.pid, () => drive(ceiling.url, ['/ceiling']));
  rows[`GET /api/frontend (${generator})`] = await measured(server.pid, () =>
    drive(server.url, users, { authorization: frontendToken }),
  );
  rows[`ceiling again (${generator})`] = await measured(ceiling.pid, () => drive(ceiling.url, ['/ceiling']));
  // Both at the same offered load, below what either can do: the tail without queueing behind saturation.
  const rate = Number(process.env.PROFILE_RATE ?? 5000);
  rows[`ceiling at ${rate} req/s`] = await measured(ceiling.pid, () =>
    load({ url: ceiling.url, paths: ['/ceiling'], seconds, connections: 50, rate }),
  );
  rows[`GET /api/frontend at ${rate} req/s`] = await measured(server.pid, () =>
    load({ url: server.url, paths: users, headers: { authorization: frontendToken }, seconds, connections: 50, rate }),
  );
  console.table(rows);
  // The collector's pauses and the event loop's delay over the run, from the replica's own metrics.
  const metrics = await (await fetch(`${server.url}/internal-backstage/prometheus`)).text();
  console.log(
    metrics
      .split('\n')
      .filter((line) =>
        /^bunting_(nodejs_gc_duration_seconds_(sum|count)|nodejs_eventloop_lag_(p50|p99|max)_seconds)/.test(line),
      )
      .join('\n'),
  );
} finally {
  ceiling.stop();
  await server.stop();
  await stack.stop();
  await isolation.cleanup();
}
