import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildEdge,
  freePort,
  httpClient,
  isolate,
  metricSamples,
  metricSum,
  startCountingProxy,
  startDelayProxy,
  startServiceProcess,
  type ServiceProcess,
} from '@bunting/test-stack';
import { load, type LoadResult } from './load.ts';
import { measureStreams } from './open-streams.ts';
import { cpuTicks } from './quiet.ts';
import { anonymousRssOf, betterCeiling, median, medianResult, rssOf, startCeiling } from './sdk-edge.ts';
import { importScaleFlags } from './scale-flags.ts';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:edge` (about four minutes): the standalone edge (BUNTING_TARGET=edge) beside the cluster's SDK edge.
 * An all-in-one process holds EDGE_BENCH_FLAGS flags (default 10,000, each a 50 % rollout) in three environments; a
 * frontend-api replica and a standalone edge (following the all-in-one over HTTP) serve them. Reports:
 * - /api/frontend and OFREP bulk evaluation on both, against the bare route sending the same bytes, in interleaved
 *   rounds (this VM's speed drifts: only figures of one round compare), each route run unmeasured on every process
 *   first (its code compiled) and the order of the processes alternating;
 * - the edge's memory holding every environment, and the replica's;
 * - the edge's start to ready with its persisted state (upstream reachable, and upstream down EDGE_BENCH_STARTS times,
 *   default 5);
 * - /api/frontend, OFREP and /api/client/features polls answered 304 (the ETag sent back);
 * - propagation from an admin change to an SDK's answer through an edge 80 ms (each way) from its upstream;
 * - EDGE_BENCH_STREAMS (default 10,000) SDK streams on the replica and on the edge, told of a change,
 *   EDGE_BENCH_STREAM_ROUNDS times (default 3) in alternating order, the median change reported. They use a
 *   token of a project of one flag: a stream starts with the token's whole hydration, which at 10,000 flags would be
 *   all the clients measured.
 * The edge and the replica run as deployed, built (`npm run build:edge`); `EDGE_BENCH_SOURCE=1` runs them from the
 * sources instead.
 * `EDGE_BENCH_VARIANT="<node options>"` adds a second standalone edge started with those Node options (for example
 * `--max-semi-space-size=2`), measured in the same rounds.
 */
const flags = Number(process.env.EDGE_BENCH_FLAGS ?? 10_000);
const seconds = Math.max(3, Number(process.env.BENCH_SECONDS ?? 10) / 2);
const rounds = Number(process.env.EDGE_BENCH_ROUNDS ?? 3);
const streamCount = Number(process.env.EDGE_BENCH_STREAMS ?? 10_000);
const streamRounds = Math.max(1, Number(process.env.EDGE_BENCH_STREAM_ROUNDS ?? 3));
const startCount = Math.max(1, Number(process.env.EDGE_BENCH_STARTS ?? 5));
const built = process.env.EDGE_BENCH_SOURCE !== '1';
const variant = process.env.EDGE_BENCH_VARIANT?.split(' ').filter(Boolean);
const environments = ['development', 'production', 'staging'];
const adminToken = '*:*.edge-bench-admin';
const clientTokens = environments.map((environment) => `*:${environment}.edge-bench-client`);
const frontendToken = '*:development.edge-bench-frontend';
const isolation = await isolate();
const persistDir = mkdtempSync(join(tmpdir(), 'bunting-edge-bench-'));
const variantDir = mkdtempSync(join(tmpdir(), 'bunting-edge-bench-'));
const processes: ServiceProcess[] = [];
/** As deploy/ starts the SDK edge: its memory settings given, so it does not start itself again to take them. */
const deployedEdge = {
  NODE_OPTIONS: '--max-semi-space-size=8',
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '262144',
};
const edgeEnv = (upstream: string, extra: Record<string, string> = {}) => ({
  ...deployedEdge,
  UPSTREAM_URL: upstream,
  EDGE_TOKENS: clientTokens.join(','),
  EDGE_PERSIST_DIR: persistDir,
  LOG_LEVEL: 'error',
  EDGE_POLL_MS: '1000',
  ...extra,
});

async function configure(admin: ReturnType<typeof httpClient>) {
  await admin.post('/api/admin/environments', { name: 'staging', type: 'test' });
  await admin.post('/api/admin/projects/default/environments', { environment: 'staging' });
  for (const environment of environments) await importScaleFlags(admin, 0, flags, environment);
}

/** Time from spawning an edge until its /ready answers 200. */
async function timedStart(
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<{ process: ServiceProcess; ms: number }> {
  const started = performance.now();
  // /ready asked every 5 ms: at 100 ms the figure was up to 100 ms late.
  const edge = await startServiceProcess('edge', env, { waitFor: 'ready', built, nodeOptions, pollMs: 5 });
  processes.push(edge);
  return { process: edge, ms: round(performance.now() - started) };
}

/** Waits until every feed an edge follows has taken an answer from its upstream; what they were. */
async function feedsAnswered(url: string): Promise<{ feeds: number; answers: Record<string, number> }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const samples = await metricSamples(url);
    const feeds = metricSum(samples, 'bunting_edge_upstream_feeds');
    const answers = Object.fromEntries(
      [...samples]
        .filter(([series]) => series.startsWith('bunting_edge_upstream_answers_total{'))
        .map(([series, value]) => [/answer="(\w+)"/.exec(series)?.[1] ?? '', value]),
    );
    const answered = metricSum(samples, 'bunting_edge_upstream_answers_total');
    if (feeds > 0 && answered >= feeds) return { feeds, answers };
    if (Date.now() > deadline)
      throw new Error(`the restarted edge's ${feeds} feeds had ${answered} answers after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** RSS of an edge holding no flags: its upstream does not answer and nothing is persisted. */
async function emptyEdgeMiB(nodeOptions: string[] = []): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bunting-edge-empty-'));
  const empty = await startServiceProcess(
    'edge',
    {
      ...edgeEnv(`http://127.0.0.1:${await freePort()}`),
      EDGE_PERSIST_DIR: dir,
      ...(nodeOptions.length > 0 ? { NODE_OPTIONS: '' } : {}),
    },
    { waitFor: 'alive', built, nodeOptions },
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const mib = round(rssOf(empty.pid) / 1048576);
  emptyAnonymous.push(round(anonymousRssOf(empty.pid) / 1048576));
  await empty.stop();
  rmSync(dir, { recursive: true, force: true });
  return mib;
}
const emptyAnonymous: number[] = [];

try {
  if (built) buildEdge();
  const emptyMemory: Record<string, number> = { 'standalone edge': await emptyEdgeMiB() };
  if (variant) emptyMemory[`standalone edge ${variant.join(' ')}`] = await emptyEdgeMiB(variant);
  const server = await startServiceProcess('all', {
    ...isolation.env,
    LOG_LEVEL: 'error',
    INIT_ADMIN_API_TOKENS: adminToken,
    INIT_CLIENT_API_TOKENS: clientTokens.join(','),
    INIT_FRONTEND_API_TOKENS: frontendToken,
  });
  processes.push(server);
  const admin = httpClient(server.url, { authorization: adminToken });
  console.log(`importing ${flags} flags into ${environments.length} environments...`);
  await configure(admin);
  const replica = await startServiceProcess(
    'frontend-api',
    { ...isolation.env, ...deployedEdge, LOG_LEVEL: 'error' },
    { built },
  );
  processes.push(replica);
  const first = await timedStart(edgeEnv(server.url));
  const edge = first.process;
  const variantName = variant ? `standalone edge ${variant.join(' ')}` : undefined;
  const variantEdge = variant
    ? (await timedStart(edgeEnv(server.url, { EDGE_PERSIST_DIR: variantDir, NODE_OPTIONS: '' }), variant)).process
    : undefined;
  const edges: [string, ServiceProcess][] = [['standalone edge', edge]];
  if (variantEdge) edges.push([variantName!, variantEdge]);

  // Every environment loaded on each before anything is measured.
  for (const [index, environment] of environments.entries()) {
    for (const target of [replica, ...edges.map(([, process]) => process)]) {
      const answer = await httpClient(target.url, { authorization: clientTokens[index]! }).get('/api/client/features');
      if (answer.body.features?.length !== flags)
        throw new Error(`${environment} on ${target.target}: ${answer.body.features?.length} flags`);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const memoryOf = () =>
    Object.fromEntries([
      ...edges.map(([name, process]) => [name, round(rssOf(process.pid) / 1048576)]),
      ['frontend-api replica', round(rssOf(replica.pid) / 1048576)],
    ]) as Record<string, number>;
  const memory = memoryOf();
  /** Each process's V8 heap (total / used) and external memory, from its own metrics. */
  const memoryParts = async () =>
    Object.fromEntries(
      await Promise.all(
        [...edges, ['frontend-api replica', replica] as const].map(async ([name, process]) => {
          const samples = await metricSamples(process.url);
          const mib = (metric: string) => round((samples.get(metric) ?? Number.NaN) / 1048576);
          return [
            name,
            `${mib('bunting_nodejs_heap_size_total_bytes')} / ${mib('bunting_nodejs_heap_size_used_bytes')}; ${mib('bunting_nodejs_external_memory_bytes')}`,
          ] as const;
        }),
      ),
    ) as Record<string, string>;

  const users = Array.from({ length: 200 }, (_, index) => `/api/frontend?userId=user-${index}&appName=bench`);
  const contexts = Array.from({ length: 200 }, (_, index) =>
    JSON.stringify({ context: { targetingKey: `user-${index}`, appName: 'bench' } }),
  );
  const sample = await httpClient(edge.url, { authorization: frontendToken }).get(users[1]!);
  const ofrepSample = await httpClient(edge.url, {
    authorization: frontendToken,
    'content-type': 'application/json',
  }).post('/ofrep/v1/evaluate/flags', contexts[1]);
  const singleSample = await httpClient(edge.url, {
    authorization: frontendToken,
    'content-type': 'application/json',
  }).post('/ofrep/v1/evaluate/flags/scale-0', contexts[1]);
  const frontendCeiling = await startCeiling(sample.text);
  const ofrepCeiling = await startCeiling(ofrepSample.text);
  const singleCeiling = await startCeiling(singleSample.text);
  const runs: Record<string, LoadResult[]> = {};
  const shares: Record<string, number[]> = {};
  /** Each run's CPU time a request (user and system, µs) of the process that served it, by row. */
  const cpu: Record<string, number[]> = {};
  type Measured = LoadResult & { cpuUs: number };
  // The share of the bare route's rate moves with the host (the bare route is mostly the kernel's write, which some
  // hours are far cheaper than others); the CPU a request, beside the bare route's, shows our own part apart.
  const onCpu = async (pid: number, run: () => Promise<LoadResult>): Promise<Measured> => {
    const before = cpuTicks(pid);
    const result = await run();
    const requests = (result.answered2xx ?? 0) + result.non2xx;
    return { ...result, cpuUs: requests > 0 ? round(((cpuTicks(pid) - before) * 10_000) / requests, 1) : 0 };
  };
  const keep = (name: string, result: Measured, ceiling?: LoadResult) => {
    (runs[name] ??= []).push(result);
    (cpu[name] ??= []).push(result.cpuUs);
    if (ceiling) (shares[name] ??= []).push(result.requestsPerSecond / ceiling.requestsPerSecond);
  };
  const headers = { authorization: frontendToken };
  const postHeaders = { ...headers, 'content-type': 'application/json' };
  // OFREP's ceiling takes the same POSTs (the bodies parsed) and sends the same answer.
  const ofrepLoad = (url: string, path = '/ofrep/v1/evaluate/flags') =>
    load({ url, paths: [path], method: 'POST', bodies: contexts, headers: postHeaders, seconds, connections: 50 });
  const ofrepOn = (served: { url: string; pid: number }, path?: string) =>
    onCpu(served.pid, () => ofrepLoad(served.url, path));
  /** /api/frontend for the bench's users, or the bare route at `path`. */
  const frontendOn = (served: { url: string; pid: number }, path?: string) =>
    onCpu(served.pid, () =>
      load({ url: served.url, paths: path ? [path] : users, ...(path ? {} : { headers }), seconds, connections: 50 }),
    );
  const servers: [string, ServiceProcess][] = [['frontend-api replica', replica], ...edges];
  // Each process's first seconds under load are its code being compiled (one run: 410 req/s in the first five seconds,
  // 1,625-1,783 after), so each route runs unmeasured once on every process first.
  for (const [, process] of servers) {
    await load({ url: process.url, paths: users, headers, seconds, connections: 50 });
    await ofrepLoad(process.url);
    await ofrepLoad(process.url, '/ofrep/v1/evaluate/flags/scale-0');
  }
  try {
    for (let index = 0; index < rounds; index += 1) {
      // Which process goes first alternates: what ran just before (the ceiling, another process) weighs on it.
      const order = index % 2 === 0 ? servers : [...servers].reverse();
      const ceiling = betterCeiling(
        await frontendOn(frontendCeiling, '/ceiling'),
        await frontendOn(frontendCeiling, '/ceiling-buffer'),
      );
      keep('ceiling (/api/frontend answer)', ceiling);
      for (const [name, process] of order) keep(`/api/frontend, ${name}`, await frontendOn(process), ceiling);
      const ofrepCeilingResult = betterCeiling(
        await ofrepOn(ofrepCeiling, '/ceiling'),
        await ofrepOn(ofrepCeiling, '/ceiling-buffer'),
      );
      keep('ceiling (OFREP answer)', ofrepCeilingResult);
      for (const [name, process] of order) keep(`OFREP bulk, ${name}`, await ofrepOn(process), ofrepCeilingResult);
      // One flag for a user: a small answer, where the route's own cost shows.
      const singleCeilingResult = betterCeiling(
        await ofrepOn(singleCeiling, '/ceiling'),
        await ofrepOn(singleCeiling, '/ceiling-buffer'),
      );
      keep('ceiling (OFREP one-flag answer)', singleCeilingResult);
      for (const [name, process] of order)
        keep(
          `OFREP one flag, ${name}`,
          await ofrepOn(process, '/ofrep/v1/evaluate/flags/scale-0'),
          singleCeilingResult,
        );
      // A server SDK's poll between changes: its ETag sent back, every answer a 304 (what most of a fleet's polls are).
      const clientHeaders = { authorization: clientTokens[0]!, 'accept-encoding': 'gzip' };
      for (const [name, process] of order) {
        const etag = (await httpClient(process.url, clientHeaders).get('/api/client/features')).headers.get('etag')!;
        keep(
          `/api/client/features 304, ${name}`,
          await onCpu(process.pid, () =>
            load({
              url: process.url,
              paths: ['/api/client/features'],
              headers: { ...clientHeaders, 'if-none-match': etag },
              seconds,
              connections: 50,
            }),
          ),
        );
      }
      // A browser polling between changes: one user, its ETag sent back, every answer a 304 without evaluating.
      for (const [name, process] of order) {
        const etag = (await httpClient(process.url, headers).get(users[1]!)).headers.get('etag')!;
        keep(
          `/api/frontend 304, ${name}`,
          await onCpu(process.pid, () =>
            load({
              url: process.url,
              paths: [users[1]!],
              headers: { ...headers, 'if-none-match': etag },
              seconds,
              connections: 50,
            }),
          ),
        );
      }
      // A poll that changes nothing: one user, its ETag sent back, every answer a 304.
      for (const [name, process] of order) {
        // Each process numbers its revisions its own way: its own ETag.
        const etag = (
          await httpClient(process.url, { ...postHeaders }).post('/ofrep/v1/evaluate/flags', contexts[1])
        ).headers.get('etag')!;
        keep(
          `OFREP bulk 304, ${name}`,
          await onCpu(process.pid, () =>
            load({
              url: process.url,
              paths: ['/ofrep/v1/evaluate/flags'],
              method: 'POST',
              bodies: [contexts[1]!],
              headers: { ...postHeaders, 'if-none-match': etag },
              seconds,
              connections: 50,
            }),
          ),
        );
      }
    }
  } finally {
    frontendCeiling.stop();
    ofrepCeiling.stop();
    singleCeiling.stop();
  }
  console.log(
    `\nStandalone edge beside the cluster's SDK edge: ${flags} flags (50 % rollouts), 50 connections, median of ${rounds} interleaved rounds of ${seconds} s; /api/frontend answer ${Buffer.byteLength(sample.text)} B, OFREP ${Buffer.byteLength(ofrepSample.text)} B`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(runs).map(([name, results]) => {
        const result = medianResult(results);
        return [
          name,
          {
            'req/s': result.requestsPerSecond,
            'p99 ms': result.p99Ms,
            'share of ceiling': shares[name] ? round(median(shares[name]), 2) : '',
            'CPU µs/request': cpu[name] ? median(cpu[name]) : '',
            // A 304 is what the poll asks for: a 200 there is the miss.
            errors: result.errors + (name.includes('304') ? (result.answered2xx ?? 0) : result.non2xx),
          },
        ];
      }),
    ),
  );
  const after = memoryOf();
  const partsAfter = await memoryParts();
  // Answer buffers a burst left are handed back after 10-20 s without large answers (answer-memory.ts).
  await new Promise((resolve) => setTimeout(resolve, 25_000));
  const settled = memoryOf();
  const partsSettled = await memoryParts();
  console.log(`\nMemory (RSS, MiB), ${built ? 'the built edge' : 'the edge from its sources'}:`);
  console.table(
    Object.fromEntries(
      Object.keys(after).map((name) => [
        name,
        {
          'no flags': emptyMemory[name] ?? '',
          [`${flags} x ${environments.length}, before load`]: memory[name],
          'after load': after[name],
          '25 s later': settled[name],
        },
      ]),
    ),
  );
  // Where the RSS is, by Node's own count: the V8 heap, what it has in use, and memory outside it (buffers).
  console.log('V8 heap (total / used) and memory outside it, MiB, after load and 25 s later:');
  console.table(
    Object.fromEntries(
      Object.keys(after).map((name) => [name, { 'after load': partsAfter[name], '25 s later': partsSettled[name] }]),
    ),
  );
  await variantEdge?.stop();

  // Open SDK streams told of a change, on the replica and on the edge (which learns the project's token upstream).
  await admin.post('/api/admin/projects', { id: 'streams', name: 'streams' });
  await admin.post('/api/admin/projects/streams/features', { name: 'stream-0' });
  await admin.post('/api/admin/projects/streams/features/stream-0/environments/development/strategies', {
    name: 'default',
  });
  const streamToken = (
    await admin.post('/api/admin/api-tokens', {
      tokenName: 'edge-bench-streams',
      type: 'client',
      environment: 'development',
      projects: ['streams'],
    })
  ).body.secret as string;
  let streamToggles = 0;
  const toggleStreamFlag = () =>
    admin.post(
      `/api/admin/projects/streams/features/stream-0/environments/development/${streamToggles++ % 2 === 0 ? 'on' : 'off'}`,
    );
  const streamTargets = [['frontend-api replica', replica] as const, ['standalone edge', edge] as const];
  for (const [name, process] of streamTargets) {
    const answer = await httpClient(process.url, { authorization: streamToken }).get('/api/client/features');
    if (answer.body.features?.length !== 1)
      throw new Error(`streams token on ${name}: ${answer.status} ${answer.text}`);
  }
  // Several changes, the order alternating: one change is one sample of each process (the first after a start also
  // compiles the code that tells the streams), and the machine drifts between two of them.
  const streamRuns: Record<string, Awaited<ReturnType<typeof measureStreams>>[]> = {};
  const streamTable: Record<string, unknown> = {};
  for (let index = 0; index < streamRounds; index += 1) {
    for (const [name, process] of index % 2 === 0 ? streamTargets : [...streamTargets].reverse()) {
      const row = await measureStreams(process, streamToken, streamCount, toggleStreamFlag);
      (streamRuns[name] ??= []).push(row);
      streamTable[`${name}, change ${index + 1}`] = row;
    }
  }
  /** Each process's change of median p99 (its own figures with it). */
  const streamRows = Object.fromEntries(
    Object.entries(streamRuns).map(([name, runs]) => {
      const sorted = [...runs].sort((a, b) => a.p99Ms - b.p99Ms);
      return [name, sorted[Math.floor((sorted.length - 1) / 2)]!];
    }),
  );
  console.log(
    `\n${streamCount} open SDK streams (a project of one flag) told of a toggle, timed from the admin request, ${streamRounds} changes on each process in alternating order; clients in 2 worker threads of the bench (installedMs: until the process had compiled the change, give or take installedWithinMs, half the time its metrics took to answer; edgeWritesMs: the process's own part, from compiling the change to the last stream written, the kernel's writes included):`,
  );
  console.table(streamTable);

  // Starts from persisted state: upstream reachable, then upstream unreachable (a port nothing listens on).
  await edge.stop();
  // Through a proxy that counts what the upstream sends the restarted edge until every feed it follows has answered.
  const counted = await startCountingProxy(Number(new URL(server.url).port));
  const warm = await timedStart(edgeEnv(`http://127.0.0.1:${counted.port}`));
  const resumed = await feedsAnswered(warm.process.url);
  const restart = { ...resumed, bytes: counted.traffic().toClient };
  await warm.process.stop();
  await counted.close();
  const hydrationBytes = (
    await Promise.all(
      clientTokens.map(
        async (token) =>
          (await httpClient(server.url, { authorization: token }).get('/api/client/features')).text.length,
      ),
    )
  ).reduce((sum, bytes) => sum + bytes, 0);
  // Upstream down: started several times, as one start on this VM can be a tenth off either way.
  const offlineMs: number[] = [];
  let offlineFlags = 0;
  for (let index = 0; index < startCount; index += 1) {
    const offline = await timedStart(edgeEnv(`http://127.0.0.1:${await freePort()}`));
    offlineFlags = (
      await httpClient(offline.process.url, { authorization: clientTokens[0]! }).get('/api/client/features')
    ).body.features.length;
    await offline.process.stop();
    offlineMs.push(offline.ms);
  }
  const starts = { nothing: first.ms, warm: warm.ms, offline: median(offlineMs) };
  console.log(
    `\nA restart with the upstream there: ${restart.bytes} bytes from the upstream until its ${restart.feeds} feeds had answered (answers: ${JSON.stringify(restart.answers)}); the same environments whole are ${hydrationBytes} bytes`,
  );
  console.log(
    `\nStart to ready (spawn to /ready 200, including Node's own start): nothing persisted ${first.ms} ms; persisted state, upstream reachable ${warm.ms} ms; persisted state, upstream down ${offlineMs.join(', ')} ms (median ${starts.offline}, serving ${offlineFlags} flags)`,
  );

  // Propagation through an edge 80 ms (each way) from its upstream, following it by streaming.
  const proxy = await startDelayProxy(Number(new URL(server.url).port), 80);
  const far = await timedStart(edgeEnv(proxy.url, { EDGE_PERSIST_DIR: '' }));
  const farFrontend = httpClient(far.process.url, { authorization: frontendToken });
  let user = '';
  for (let candidate = 0; candidate < 1000 && !user; candidate += 1) {
    if ((await farFrontend.get(`/api/frontend/features/scale-0?userId=u-${candidate}`)).status === 200)
      user = `u-${candidate}`;
  }
  const delays: number[] = [];
  let enabled = true;
  for (let change = 0; change < 40; change += 1) {
    enabled = !enabled;
    const started = performance.now();
    await admin.post(`/api/admin/projects/default/features/scale-0/environments/development/${enabled ? 'on' : 'off'}`);
    while (((await farFrontend.get(`/api/frontend/features/scale-0?userId=${user}`)).status === 200) !== enabled)
      await new Promise((resolve) => setTimeout(resolve, 2));
    delays.push(performance.now() - started);
  }
  console.log(
    `\nPropagation, admin change -> an SDK's answer at an edge 80 ms each way from its upstream (40 toggles of one of ${flags} flags; ms):`,
  );
  console.table({ 'through the far edge': summarize(delays) });

  // The far edge's answers with its upstream reachable and away (the proxy sent to a port nothing listens on, its
  // connections cut), in interleaved rounds: the edge answers from memory either way.
  const deadPort = await freePort();
  const away: Record<string, LoadResult[]> = { 'upstream reachable': [], 'upstream away': [] };
  for (let index = 0; index < rounds; index += 1) {
    proxy.retarget(Number(new URL(server.url).port));
    away['upstream reachable']!.push(
      await load({ url: far.process.url, paths: users, headers, seconds, connections: 50 }),
    );
    proxy.retarget(deadPort);
    proxy.cut();
    away['upstream away']!.push(await load({ url: far.process.url, paths: users, headers, seconds, connections: 50 }));
  }
  await proxy.close();
  console.log(`\n/api/frontend at the far edge, upstream reachable and away (median of ${rounds} interleaved rounds):`);
  console.table(
    Object.fromEntries(
      Object.entries(away).map(([name, results]) => {
        const result = medianResult(results);
        return [
          name,
          {
            'req/s': result.requestsPerSecond,
            'p50 ms': result.p50Ms,
            'p99 ms': result.p99Ms,
            errors: result.errors + result.non2xx,
          },
        ];
      }),
    ),
  );

  // The goals of the lean edge (bench/README.md, "The lean edge"), each beside what this run measured.
  const share = (name: string) => (shares[name] ? round(median(shares[name]), 2) : undefined);
  const p99Of = (name: string) => (runs[name] ? medianResult(runs[name]).p99Ms : undefined);
  const rateOf = (name: string) => (runs[name] ? medianResult(runs[name]).requestsPerSecond : undefined);
  const frontendP99Ratio = round(
    (p99Of('/api/frontend, standalone edge') ?? 0) / (p99Of('ceiling (/api/frontend answer)') ?? 1),
    2,
  );
  const verdict = (met: boolean) => (met ? 'met' : 'not met');
  const cpuOf = (name: string) => (cpu[name] ? median(cpu[name]) : undefined);
  const cpuBeside = (route: string, ceiling: string) =>
    `${cpuOf(`${route}, standalone edge`)} / ${cpuOf(`${route}, frontend-api replica`)} / ${cpuOf(ceiling)}`;
  console.log(
    `\nGoals (${flags} flags x ${environments.length} environments; the edge ${built ? 'built' : 'from its sources'}):`,
  );
  console.table({
    'edge RSS after load, MiB': {
      measured: after['standalone edge'],
      goal: 'under 200 (aim), 250 (bar)',
      verdict: verdict((after['standalone edge'] ?? Infinity) < 200),
    },
    'replica RSS after load, MiB': {
      measured: after['frontend-api replica'],
      goal: 'under 200 (aim), 250 (bar)',
      verdict: verdict((after['frontend-api replica'] ?? Infinity) < 200),
    },
    'edge / replica RSS 25 s after load, MiB': {
      measured: `${settled['standalone edge']} / ${settled['frontend-api replica']}`,
      goal: 'report',
      verdict: 'report',
    },
    'edge with no flags, MiB': {
      measured: emptyMemory['standalone edge'],
      goal: 'under 90',
      verdict: verdict((emptyMemory['standalone edge'] ?? Infinity) < 90),
    },
    'edge with no flags, less file pages (the Node binary, shared), MiB': {
      measured: emptyAnonymous[0],
      goal: 'report',
      verdict: 'report',
    },
    [`start to ready from persisted state, upstream down, ms (median of ${startCount})`]: {
      measured: `${starts.offline} (${Math.min(...offlineMs)}-${Math.max(...offlineMs)})`,
      goal: 'under 500',
      verdict: verdict(starts.offline < 500),
    },
    'a restart with the upstream there: bytes from the upstream (everything, whole, would be)': {
      measured: `${restart.bytes} (${hydrationBytes})`,
      goal: 'report',
      verdict: 'report',
    },
    'OFREP bulk, share of its ceiling (edge / replica)': {
      measured: `${share('OFREP bulk, standalone edge')} / ${share('OFREP bulk, frontend-api replica')}`,
      goal: '0.75 or more',
      verdict: verdict(
        (share('OFREP bulk, standalone edge') ?? 0) >= 0.75 && (share('OFREP bulk, frontend-api replica') ?? 0) >= 0.75,
      ),
    },
    "  OFREP bulk's CPU a request, µs (edge / replica / the bare route sending its answer)": {
      measured: cpuBeside('OFREP bulk', 'ceiling (OFREP answer)'),
      goal: 'report',
      verdict: 'report',
    },
    '/api/frontend, share of its ceiling (edge / replica)': {
      measured: `${share('/api/frontend, standalone edge')} / ${share('/api/frontend, frontend-api replica')}`,
      goal: '0.75 or more',
      verdict: verdict(
        (share('/api/frontend, standalone edge') ?? 0) >= 0.75 &&
          (share('/api/frontend, frontend-api replica') ?? 0) >= 0.75,
      ),
    },
    "  /api/frontend's CPU a request, µs (edge / replica / the bare route sending its answer)": {
      measured: cpuBeside('/api/frontend', 'ceiling (/api/frontend answer)'),
      goal: 'report',
      verdict: 'report',
    },
    '/api/frontend 304 (a browser polling between changes), req/s (edge / replica)': {
      measured: `${rateOf('/api/frontend 304, standalone edge')} / ${rateOf('/api/frontend 304, frontend-api replica')}`,
      goal: 'report',
      verdict: 'report',
    },
    'OFREP one flag, share of its ceiling (edge / replica)': {
      measured: `${share('OFREP one flag, standalone edge')} / ${share('OFREP one flag, frontend-api replica')}`,
      goal: "beside /api/frontend's",
      verdict: 'report',
    },
    [`${streamCount} open streams told of a change, p99 ms (edge / replica; median of ${streamRounds} changes)`]: {
      measured: `${streamRows['standalone edge']?.p99Ms} / ${streamRows['frontend-api replica']?.p99Ms}`,
      goal: 'under 300',
      verdict: verdict(
        Object.values(streamRows).every((row) => row.p99Ms < 300) &&
          Object.values(streamRuns).every((runs) => runs.every((row) => row.heard === row.streams)),
      ),
    },
    [`  the first change after the streams opened, p99 ms (edge / replica)`]: {
      measured: `${streamRuns['standalone edge']?.[0]?.p99Ms} / ${streamRuns['frontend-api replica']?.[0]?.p99Ms}`,
      goal: 'report',
      verdict: 'report',
    },
    [`  of which the change reaching the process: admin request to compiled, ms (edge / replica)`]: {
      measured: ['standalone edge', 'frontend-api replica']
        .map((name) => `${streamRows[name]?.installedMs} ± ${streamRows[name]?.installedWithinMs}`)
        .join(' / '),
      goal: 'report',
      verdict: 'report',
    },
    [`  of which the process's own part: compiled to the last stream written, ms (edge / replica)`]: {
      measured: `${streamRows['standalone edge']?.edgeWritesMs} / ${streamRows['frontend-api replica']?.edgeWritesMs}`,
      goal: 'report',
      verdict: 'report',
    },
    '/api/frontend p99 against the ceiling (edge)': {
      measured: `${frontendP99Ratio}x`,
      goal: 'within 1.5x',
      verdict: verdict(frontendP99Ratio <= 1.5),
    },
  });
} finally {
  for (const process of processes.reverse()) await process.stop().catch(() => undefined);
  await isolation.cleanup();
  rmSync(persistDir, { recursive: true, force: true });
  rmSync(variantDir, { recursive: true, force: true });
}
