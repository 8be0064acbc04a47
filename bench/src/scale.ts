import { readFileSync } from 'node:fs';
import { httpClient, isolate, rolloutExport, startServiceProcess, type HttpClient } from '@bunting/test-stack';
import { READS, measureEventSearch } from './event-search.ts';
import { load, type LoadResult } from './load.ts';
import { measureImpactFleet, startFleetExperiment } from './impact-fleet.ts';
import { measureMetricsFleet } from './metrics-fleet.ts';
import { measureStreams } from './open-streams.ts';
import { betterCeiling, measureOfrep, startCeiling } from './sdk-edge.ts';
import { quiet } from './quiet.ts';
import { round, summarize } from './stats.ts';
import { importScaleFlags, scale0Answers, userInsideScale0 } from './scale-flags.ts';

/**
 * `npm run bench:scale`: how the SDK edge's costs grow with the work. Flags per environment (200, 2,000,
 * 10,000): creation rate, /api/client/features size, /api/frontend req/s and p99, propagation of one change;
 * open SDK streams (1,000, 5,000, 10,000 on one frontend-api replica): memory per stream, the time for a change
 * to reach all of them, and their release when clients go away; a metrics fleet of 2,000 SDK instances for a
 * minute, and one posting impact metrics; one 5,000-flag import; the event log's reads over a million events. Bounded: about 10 minutes.
 */
const adminToken = '*:*.scale-admin';
const frontendToken = 'default:development.scale-frontend';
const clientToken = 'default:development.scale-client';
const FLAG_STEPS = (process.env.SCALE_FLAGS ?? '200,2000,10000').split(',').map(Number);
const STREAM_STEPS = (process.env.SCALE_STREAMS ?? '1000,5000,10000').split(',').map(Number);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const goal = (met: boolean) => (met ? 'met' : 'not met');

async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/**
 * Grows the flags to `total`: the last 100 through the API one by one (16 at a time, each created and turned on),
 * the rest by import in batches of 2,000; flags per second of each way. The flags made through the API wait until the
 * all-in-one process (`pid`) is done with the import's events, so their rate is the API's, not the two together.
 */
async function growFlags(admin: HttpClient, from: number, total: number, pid: number) {
  const byApi = Math.min(100, total - from);
  let importedPerSecond = Number.NaN;
  if (total - byApi > from) {
    const started = performance.now();
    await importScaleFlags(admin, from, total - byApi);
    importedPerSecond = round((total - byApi - from) / ((performance.now() - started) / 1000));
    await quiet(pid);
  }
  const started = performance.now();
  await inParallel(byApi, 16, async (offset) => {
    const name = `scale-${total - byApi + offset}`;
    const created = await admin.post('/api/admin/projects/default/features', { name });
    if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${created.text}`);
    await admin.post(`/api/admin/projects/default/features/${name}/environments/development/on`);
  });
  return { importedPerSecond, createdPerSecond: round(byApi / ((performance.now() - started) / 1000)) };
}

async function propagation(admin: HttpClient, url: string, changes: number) {
  const frontend = httpClient(url, { authorization: frontendToken });
  // As a user inside the rollout (before 2026-11-25's night, without one, every other sample was a toggle off seen at once).
  const user = await userInsideScale0(frontend);
  const samples: number[] = [];
  for (let index = 0; index < changes; index += 1) {
    const enabled = index % 2 === 1;
    const start = performance.now();
    await admin.post(`/api/admin/projects/default/features/scale-0/environments/development/${enabled ? 'on' : 'off'}`);
    await scale0Answers(frontend, user, enabled);
    samples.push(performance.now() - start);
  }
  const summary = summarize(samples);
  return { p50Ms: round(summary.p50), p99Ms: round(summary.p99) };
}

/** N streams on the replica, one toggle of scale-1: a row of bench:scale's stream table. */
async function streamRow(admin: HttpClient, replica: { url: string; pid: number }, count: number, toggle: number) {
  const measured = await measureStreams(replica, clientToken, count, () =>
    admin.post(
      `/api/admin/projects/default/features/scale-1/environments/development/${toggle % 2 === 0 ? 'off' : 'on'}`,
    ),
  );
  return {
    streams: measured.streams,
    heard: measured.heard,
    'KiB per stream': measured.kibPerStream,
    'p50 ms': measured.p50Ms,
    'p99 ms': measured.p99Ms,
    'max ms': measured.maxMs,
    'open after clients left': measured.openAfterClientsLeft,
    'goal (<20 KiB, p99 <500 ms)': goal(measured.kibPerStream < 20 && measured.p99Ms < 500 && measured.heard === count),
  };
}

/** How long the replica took to compile the development snapshot it serves, from its metrics. */
async function compileMs(url: string): Promise<number> {
  const text = (await httpClient(url).get('/internal-backstage/prometheus')).text;
  return (
    Number(
      /^bunting_snapshot_compile_seconds\{environment="development"\} ([\d.e-]+)$/m.exec(text)?.[1] ?? Number.NaN,
    ) * 1000
  );
}

/**
 * The replica's memory with the largest flag count in three environments: each environment's client and frontend
 * answers asked (so its snapshot is held and its bodies built), then a short load spread over all three.
 */
async function memoryWithEnvironments(admin: HttpClient, replica: { url: string; pid: number }) {
  await admin.post('/api/admin/environments', { name: 'staging', type: 'test' });
  await admin.post('/api/admin/projects/default/environments', { environment: 'staging' });
  const environments = ['development', 'production', 'staging'];
  const tokens = await Promise.all(
    environments.map(async (environment) => {
      const make = async (type: string) =>
        (
          await admin.post('/api/admin/api-tokens', {
            tokenName: `scale-${type}-${environment}`,
            type,
            environment,
            projects: ['*'],
          })
        ).body.secret as string;
      return { client: await make('client'), frontend: await make('frontend') };
    }),
  );
  const before = rssMiB(replica.pid);
  for (const token of tokens) {
    await httpClient(replica.url, { authorization: token.client }).get('/api/client/features');
    await httpClient(replica.url, { authorization: token.frontend }).get('/api/frontend?userId=u-1');
  }
  const paths = Array.from({ length: 60 }, (_, index) => `/api/frontend?userId=u-${index}&appName=scale`);
  const loaded = await Promise.all(
    tokens.map((token) =>
      load({ url: replica.url, paths, headers: { authorization: token.frontend }, seconds, connections: 16 }),
    ),
  );
  return {
    environments: 3,
    'replica RSS MiB (one environment)': round(before),
    'replica RSS MiB (three, after load)': round(rssMiB(replica.pid)),
    'frontend req/s (all three)': loaded.reduce((sum, result) => sum + result.requestsPerSecond, 0),
  };
}

const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  INIT_FRONTEND_API_TOKENS: frontendToken,
  INIT_CLIENT_API_TOKENS: clientToken,
});
let replica: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
try {
  const admin = httpClient(server.url, { authorization: adminToken });
  replica = await startServiceProcess('frontend-api', { ...isolation.env, LOG_LEVEL: 'error' });
  const flagRows: Record<string, unknown>[] = [];
  let have = 0;
  for (const flags of FLAG_STEPS) {
    const grown = await growFlags(admin, have, flags, server.pid);
    have = flags;
    const client = httpClient(replica.url, { authorization: clientToken });
    // The replica has the new flags once its answer names the last one.
    while (!(await client.get('/api/client/features')).text.includes(`"scale-${flags - 1}"`))
      await new Promise((resolve) => setTimeout(resolve, 50));
    // Then until its revision stays put for a second: the last flags' switches may still be on their way.
    let etag = '';
    for (let settled = 0; settled < 4; await new Promise((resolve) => setTimeout(resolve, 250))) {
      const now = (await client.get('/api/client/features')).headers.get('etag')!;
      settled = now === etag ? settled + 1 : 0;
      etag = now;
    }
    const features = await client.get('/api/client/features');
    const users = Array.from({ length: 200 }, (_, index) => `/api/frontend?userId=u-${index}&appName=scale`);
    const sample = (await httpClient(replica.url, { authorization: frontendToken }).get(users[0]!)).text;
    const frontendBytes = sample.length;
    // The edge alone: the all-in-one process done with the growth's events (insights, the event log, its own
    // snapshots), and the replica's answer bytes for this revision made by a short run first.
    const waited = await quiet(server.pid);
    await load({
      url: replica.url,
      paths: users,
      headers: { authorization: frontendToken },
      seconds: 1,
      connections: 50,
    });
    // /api/frontend and the same-payload ceiling for this size in three interleaved rounds, the median of each
    // reported (one round of each swung by tens of per cent with the machine's drift); then OFREP bulk with its own.
    // Each round's ceiling is the better of the bare route's string and Buffer answers (betterCeiling).
    const ceiling = await startCeiling(sample);
    const rounds: { frontend: LoadResult; string: LoadResult; buffer: LoadResult }[] = [];
    try {
      for (let round = 0; round < 3; round += 1) {
        rounds.push({
          frontend: await load({
            url: replica.url,
            paths: users,
            headers: { authorization: frontendToken },
            seconds,
            connections: 50,
          }),
          string: await load({ url: ceiling.url, paths: ['/ceiling'], seconds, connections: 50 }),
          buffer: await load({ url: ceiling.url, paths: ['/ceiling-buffer'], seconds, connections: 50 }),
        });
      }
    } finally {
      ceiling.stop();
    }
    const middle = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const ceilingOf = (round: (typeof rounds)[number]) => betterCeiling(round.string, round.buffer);
    const frontend = {
      requestsPerSecond: middle(rounds.map((round) => round.frontend.requestsPerSecond)),
      p99Ms: middle(rounds.map((round) => round.frontend.p99Ms)),
    };
    const ceilingResult = {
      requestsPerSecond: middle(rounds.map((round) => ceilingOf(round).requestsPerSecond)),
      p99Ms: middle(rounds.map((round) => ceilingOf(round).p99Ms)),
    };
    const ceilingKinds = `${middle(rounds.map((round) => round.string.requestsPerSecond))} / ${middle(rounds.map((round) => round.buffer.requestsPerSecond))}`;
    const ofrep = await measureOfrep({ url: replica.url, frontendToken, seconds, rounds: 1 });
    const share = middle(rounds.map((round) => round.frontend.requestsPerSecond / ceilingOf(round).requestsPerSecond));
    const notModified = await load({
      url: replica.url,
      paths: ['/api/client/features'],
      headers: { authorization: clientToken, 'if-none-match': etag },
      seconds: 2,
      connections: 50,
    });
    const moved = await propagation(admin, server.url, 20);
    flagRows.push({
      flags,
      'imported/s': grown.importedPerSecond,
      'API created/s': grown.createdPerSecond,
      'client/features kB': round(features.text.length / 1024),
      'frontend kB': round(frontendBytes / 1024),
      'all-in-one busy after growth s': waited,
      'frontend req/s': frontend.requestsPerSecond,
      'frontend p99 ms': frontend.p99Ms,
      'ceiling req/s': ceilingResult.requestsPerSecond,
      'ceiling req/s (string / Buffer)': ceilingKinds,
      'ceiling p99 ms': ceilingResult.p99Ms,
      share: round(share, 2),
      'goal (>= 0.5, p99 <= 1.5x)': goal(share >= 0.5 && frontend.p99Ms <= 1.5 * ceilingResult.p99Ms),
      'OFREP bulk req/s': ofrep.ofrep.requestsPerSecond,
      'OFREP p99 ms': ofrep.ofrep.p99Ms,
      'OFREP share': ofrep.shareOfCeiling,
      'compile ms': round(await compileMs(replica.url), 1),
      '304 req/s': notModified.requestsPerSecond,
      'propagation p50 ms': moved.p50Ms,
      'propagation p99 ms': moved.p99Ms,
      'propagation goal (p99 <500 ms)': goal(moved.p99Ms < 500),
      'replica RSS MiB': round(rssMiB(replica.pid)),
      'all-in-one RSS MiB': round(rssMiB(server.pid)),
    });
    // Streams at the first size (a hydration of 10,000 flags is megabytes per stream, which would be all it measured).
    if (flags === FLAG_STEPS[0]) {
      const streamRows: Record<string, unknown>[] = [];
      for (const [index, count] of STREAM_STEPS.entries())
        streamRows.push(await streamRow(admin, replica, count, index));
      console.log(
        `\nOpen SDK streams on one frontend-api replica (${flags} flags; one toggle, timed from the admin request; clients on the same machine):`,
      );
      console.table(streamRows);
    }
  }
  console.log('\nFlags per environment (frontend-api replica; /api/frontend 50 connections for %d s):', seconds);
  console.table(flagRows);
  console.log(`\nMemory with ${FLAG_STEPS.at(-1)} flags in three environments (frontend-api replica):`);
  console.table([await memoryWithEnvironments(admin, replica)]);

  const apps = Number(process.env.SCALE_APPS ?? 100);
  const fleetSeconds = Number(process.env.SCALE_FLEET_SECONDS ?? 60);
  const fleet = await measureMetricsFleet({
    url: replica.url,
    clientToken,
    databaseUrl: isolation.databaseUrl,
    flags: Array.from({ length: 21 }, (_, index) => `scale-${index}`),
    apps,
    instancesPerApp: 20,
    intervalSeconds: 10,
    seconds: fleetSeconds,
  });
  console.log(
    `\nA metrics fleet for ${fleetSeconds} s: ${apps * 20} SDK instances (${apps} apps) posting /api/client/metrics every 10 s and one Edge posting bulk metrics for 10 more apps, 20 flags each, to the frontend-api replica:`,
  );
  console.table([fleet]);

  const impact = await measureImpactFleet({
    url: replica.url,
    admin,
    clientToken,
    databaseUrl: isolation.databaseUrl,
    apps,
    instancesPerApp: 20,
    intervalSeconds: 10,
    seconds: fleetSeconds,
    queries: 200,
    experiment: await startFleetExperiment(admin),
  });
  console.log(
    `\nAn impact-metrics fleet for ${fleetSeconds} s: ${apps * 20} SDK instances each posting 5 counters, 2 gauges and a histogram every 10 s; then 200 queries of a day's range of a metric with 1,000 series:`,
  );
  console.table([impact]);

  await admin.post('/api/admin/projects', { id: 'imports', name: 'imports' });
  const rssBefore = rssMiB(server.pid);
  const started = performance.now();
  const names = Array.from({ length: 5000 }, (_, index) => `imported-${index}`);
  const imported = await admin.post('/api/admin/features-batch/import', {
    project: 'imports',
    environment: 'development',
    data: rolloutExport(names, 'imports'),
  });
  const answered = performance.now();
  console.log(
    `\nImport of 5,000 flags in one features-batch/import: ${imported.status}, ${round((answered - started) / 1000, 2)} s, all-in-one RSS ${round(rssBefore)} -> ${round(rssMiB(server.pid))} MiB`,
  );
  // How far behind the import's answer the event log holds all of it (features-imported is the import's last event).
  while (
    (await admin.post('/api/admin/events/search', { project: 'imports', type: 'features-imported' })).body.events
      .length === 0
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { body: logged } = await admin.post('/api/admin/events/search', { project: 'imports', limit: 1 });
  console.log(
    `The event log held the import's ${logged.totalEvents} events ${round((performance.now() - answered) / 1000, 2)} s after its answer`,
  );

  const eventCount = Number(process.env.SCALE_EVENTS ?? 1_000_000);
  const search = await measureEventSearch(admin, isolation.databaseUrl, eventCount);
  console.log(
    `\nThe event log's reads with ${eventCount.toLocaleString('en')} more events in its table (seeded in ${search.seedSeconds} s; ${READS} reads each, one at a time):`,
  );
  console.table(search.rows);
} finally {
  await replica?.stop();
  await server.stop();
  await isolation.cleanup();
}
