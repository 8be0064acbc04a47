import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { measureImpactFleet, startFleetExperiment } from './impact-fleet.ts';

/**
 * `npm run bench:impact`: only the impact-metrics fleet (what `bench:scale` runs after its metrics fleet), on an
 * all-in-one process with a frontend-api replica taking the posts. `SCALE_APPS` (default 100, 20 instances each)
 * and `SCALE_FLEET_SECONDS` (default 60) size it.
 */
const adminToken = '*:*.impact-admin';
const clientToken = 'default:development.impact-client';
const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  INIT_CLIENT_API_TOKENS: clientToken,
});
let replica: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
try {
  replica = await startServiceProcess('frontend-api', { ...isolation.env, LOG_LEVEL: 'error' });
  const admin = httpClient(server.url, { authorization: adminToken });
  for (const name of ['scale-1', 'scale-2']) await admin.post('/api/admin/projects/default/features', { name });
  const experiment = await startFleetExperiment(admin);
  const apps = Number(process.env.SCALE_APPS ?? 100);
  const seconds = Number(process.env.SCALE_FLEET_SECONDS ?? 60);
  const fleet = await measureImpactFleet({
    url: replica.url,
    admin,
    clientToken,
    databaseUrl: isolation.databaseUrl,
    apps,
    instancesPerApp: 20,
    intervalSeconds: 10,
    seconds,
    queries: 200,
    experiment,
  });
  console.log(
    `\nAn impact-metrics fleet for ${seconds} s: ${apps * 20} SDK instances (${apps} apps) each posting 5 counters, 2 gauges and a histogram every 10 s to the frontend-api replica; then ${200} queries of a day's range of a metric with 1,000 series:`,
  );
  console.table([fleet]);
} finally {
  await replica?.stop();
  await server.stop();
  await isolation.cleanup();
}
