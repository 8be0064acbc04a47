import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { configureFlags } from './sdk-edge.ts';
import { readFileSync } from 'node:fs';
import { load } from './load.ts';

function cpuOf(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10, minorFaults: Number(fields[7]) };
}

/**
 * Load on GET /api/frontend against an all-in-one process started with `PROFILE_NODE_OPTIONS` (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`), for finding where a request's time goes. Not part of `npm run bench`.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const isolation = await isolate();
const adminToken = '*:*.bench-admin';
const frontendToken = 'default:development.bench-frontend';
const env = { ...isolation.env, LOG_LEVEL: 'error', INIT_ADMIN_API_TOKENS: adminToken, INIT_FRONTEND_API_TOKENS: frontendToken };
const stack = await startServiceProcess('all', env);
await configureFlags(httpClient(stack.url, { authorization: adminToken }));
// A frontend-api replica of its own, started after the configuration so its profile holds only the load.
const server = await startServiceProcess('frontend-api', { ...env, NODE_OPTIONS: process.env.PROFILE_NODE_OPTIONS ?? '' });
try {
  await httpClient(server.url, { authorization: frontendToken }).get('/api/frontend');
  const users = Array.from({ length: 1000 }, (_, index) => `${process.env.PROFILE_PATH ?? '/api/frontend'}?userId=user-${index}&properties[country]=${index % 3 === 0 ? 'US' : 'NO'}&appName=bench`);
  const before = cpuOf(server.pid);
  const result = await load({ url: server.url, paths: users, headers: { authorization: frontendToken }, seconds, connections: 50 });
  const after = cpuOf(server.pid);
  const requests = result.requestsPerSecond * seconds;
  console.table({ 'GET /api/frontend': { ...result, userUsPerRequest: Math.round(((after.user - before.user) * 1000) / requests), systemUsPerRequest: Math.round(((after.system - before.system) * 1000) / requests), minorFaultsPerRequest: Math.round(((after.minorFaults - before.minorFaults) / requests) * 100) / 100 } });
} finally {
  await server.stop();
  await stack.stop();
  await isolation.cleanup();
}
