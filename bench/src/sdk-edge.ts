import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpClient, type HttpClient } from '@bunting/testing';
import { load, type LoadResult } from './load.ts';
import { round, summarize } from './stats.ts';
import { wrkAvailable, wrkLoad } from './wrk.ts';

const FLAGS = 200;

/** 200 flags, each a flexibleRollout with one IN constraint of 10 values and 2 strategy variants. */
export async function configureFlags(admin: HttpClient) {
  for (let index = 0; index < FLAGS; index += 1) {
    const name = `bench-flag-${index}`;
    await admin.post('/api/admin/projects/default/features', { name });
    await admin.post(`/api/admin/projects/default/features/${name}/environments/development/strategies`, {
      name: 'flexibleRollout',
      parameters: { rollout: String(30 + (index % 70)), stickiness: 'default' },
      constraints: [
        {
          contextName: 'country',
          operator: 'IN',
          values: ['NO', 'SE', 'DK', 'FI', 'IS', 'DE', 'NL', 'BE', 'FR', 'ES'],
        },
      ],
      variants: [
        { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default' },
        {
          name: 'treatment',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: `{"flag":${index}}` },
        },
      ],
    });
    await admin.post(`/api/admin/projects/default/features/${name}/environments/development/on`);
  }
}

/** The anonymous part of a process's RSS: what is its own, without the pages of files (the Node binary) it shares. */
export function anonymousRssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

export async function startCeiling(body: string) {
  const file = join(tmpdir(), `bunting-ceiling-${process.pid}.json`);
  writeFileSync(file, body);
  const script = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));
  const child = spawn(process.execPath, [script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/**
 * A round's ceiling from the bare route's string and Buffer answers: the more requests and the lower p99 of the two.
 * With big bodies the string's fresh memory for every response makes it the weaker by far.
 */
export function betterCeiling<T extends LoadResult>(asString: T, asBuffer: T): T {
  const faster = asBuffer.requestsPerSecond > asString.requestsPerSecond ? asBuffer : asString;
  return { ...faster, p99Ms: Math.min(asString.p99Ms, asBuffer.p99Ms) };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The median round of each target: this VM's speed drifts by tens of per cent within a minute. */
export function medianResult(results: readonly LoadResult[]): LoadResult {
  return {
    requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
    p50Ms: median(results.map((result) => result.p50Ms)),
    p90Ms: median(results.map((result) => result.p90Ms)),
    p99Ms: median(results.map((result) => result.p99Ms)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    answered2xx: results.reduce((sum, result) => sum + (result.answered2xx ?? 0), 0),
    bytesPerResponse: median(results.map((result) => result.bytesPerResponse)),
  };
}

/**
 * The SDK edge against its ceiling, in `rounds` interleaved rounds (ceiling, /api/frontend on the all-in-one
 * process, /api/frontend on a frontend-api replica of its own), so that drift on the shared host hits every
 * target alike; each ratio is taken within a round and the median round reported.
 */
export async function measureSdkEdge(options: {
  url: string;
  pid: number;
  replica: { url: string; pid: number };
  edge: { url: string; pid: number };
  frontendToken: string;
  clientToken: string;
  seconds: number;
  rounds: number;
}) {
  const users = Array.from(
    { length: 1000 },
    (_, index) =>
      `/api/frontend?userId=user-${index}&properties[country]=${index % 3 === 0 ? 'US' : 'NO'}&appName=bench`,
  );
  const frontend = httpClient(options.url, { authorization: options.frontendToken });
  const sample = await frontend.get(users[1]!);
  const ceiling = await startCeiling(sample.text);
  const rssBefore = rssOf(options.pid);
  const replicaRssBefore = rssOf(options.replica.pid);
  // The same users against the ceiling's mixed route: a third get the empty answer, as from /api/frontend.
  const mixPaths = Array.from(
    { length: 1000 },
    (_, index) => `/ceiling-mix?empty=${index % 3 === 0 ? 1 : 0}&userId=user-${index}&appName=bench`,
  );
  // Every user inside the constraint: each answer is the sample's size, so the string ceiling is its same-payload one.
  const insiders = Array.from(
    { length: 1000 },
    (_, index) => `/api/frontend?userId=user-${index}&properties[country]=NO&appName=bench`,
  );
  const runs = {
    ceiling: [] as LoadResult[],
    ceilingBuffer: [] as LoadResult[],
    ceilingMix: [] as LoadResult[],
    frontend: [] as LoadResult[],
    replica: [] as LoadResult[],
    edge: [] as LoadResult[],
    inside: [] as LoadResult[],
  };
  const shares = {
    frontend: [] as number[],
    replica: [] as number[],
    edge: [] as number[],
    frontendOfMix: [] as number[],
    replicaOfMix: [] as number[],
    edgeOfMix: [] as number[],
  };
  const edgeRssBefore = rssOf(options.edge.pid);
  const withWrk = wrkAvailable();
  const wrkRuns = {
    ceiling: [] as LoadResult[],
    ceilingMix: [] as LoadResult[],
    frontend: [] as LoadResult[],
    inside: [] as LoadResult[],
  };
  // The same on the frontend-api replica, a process with the SDK edge alone (as deploy/ runs it).
  const wrkReplica = {
    ceiling: wrkRuns.ceiling,
    ceilingMix: wrkRuns.ceilingMix,
    frontend: [] as LoadResult[],
    inside: [] as LoadResult[],
  };
  const frontendLoad = (url: string, paths = users) =>
    load({ url, paths, headers: { authorization: options.frontendToken }, seconds: options.seconds, connections: 50 });
  const frontendWrk = (paths: string[], url = options.url, rate?: number) =>
    wrkLoad({
      url,
      paths,
      headers: { authorization: options.frontendToken },
      seconds: options.seconds,
      connections: 50,
      rate,
    });
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      const ceilingResult = await load({
        url: ceiling.url,
        paths: ['/ceiling'],
        seconds: options.seconds,
        connections: 50,
      });
      runs.ceiling.push(ceilingResult);
      runs.ceilingBuffer.push(
        await load({ url: ceiling.url, paths: ['/ceiling-buffer'], seconds: options.seconds, connections: 50 }),
      );
      const mixResult = await load({ url: ceiling.url, paths: mixPaths, seconds: options.seconds, connections: 50 });
      runs.ceilingMix.push(mixResult);
      const allInOne = await frontendLoad(options.url);
      runs.frontend.push(allInOne);
      const replica = await frontendLoad(options.replica.url);
      runs.replica.push(replica);
      // The standalone edge (BUNTING_TARGET=edge), following the all-in-one over HTTP as it would any Unleash.
      const edge = await frontendLoad(options.edge.url);
      runs.edge.push(edge);
      runs.inside.push(await frontendLoad(options.url, insiders));
      if (withWrk) {
        wrkRuns.ceiling.push(
          await wrkLoad({ url: ceiling.url, paths: ['/ceiling'], seconds: options.seconds, connections: 50 }),
        );
        wrkRuns.ceilingMix.push(
          await wrkLoad({ url: ceiling.url, paths: mixPaths, seconds: options.seconds, connections: 50 }),
        );
        wrkRuns.frontend.push(await frontendWrk(users));
        wrkRuns.inside.push(await frontendWrk(insiders));
        wrkReplica.frontend.push(await frontendWrk(users, options.replica.url));
        wrkReplica.inside.push(await frontendWrk(insiders, options.replica.url));
      }
      shares.frontend.push(allInOne.requestsPerSecond / ceilingResult.requestsPerSecond);
      shares.replica.push(replica.requestsPerSecond / ceilingResult.requestsPerSecond);
      shares.frontendOfMix.push(allInOne.requestsPerSecond / mixResult.requestsPerSecond);
      shares.replicaOfMix.push(replica.requestsPerSecond / mixResult.requestsPerSecond);
      shares.edge.push(edge.requestsPerSecond / ceilingResult.requestsPerSecond);
      shares.edgeOfMix.push(edge.requestsPerSecond / mixResult.requestsPerSecond);
    }
    // Both at one offered load that neither saturates (wrk pacing its connections; autocannon's own CPU would set
    // the tail at any rate): the tail without the queue that a closed loop of 50 connections builds in front of
    // whichever serves fewer requests a second.
    const rate = withWrk ? Math.round(medianResult(wrkRuns.ceiling).requestsPerSecond / 2) : 0;
    const atRate = {
      ceilingMix: [] as LoadResult[],
      frontend: [] as LoadResult[],
      ceiling: [] as LoadResult[],
      inside: [] as LoadResult[],
    };
    for (let round = 0; withWrk && round < options.rounds; round += 1) {
      atRate.ceilingMix.push(
        await wrkLoad({ url: ceiling.url, paths: mixPaths, seconds: options.seconds, connections: 50, rate }),
      );
      atRate.frontend.push(await frontendWrk(users, options.url, rate));
      atRate.ceiling.push(
        await wrkLoad({ url: ceiling.url, paths: ['/ceiling'], seconds: options.seconds, connections: 50, rate }),
      );
      atRate.inside.push(await frontendWrk(insiders, options.url, rate));
    }
    const client = httpClient(options.url, { authorization: options.clientToken });
    const full = await client.get('/api/client/features', { 'unleash-client-spec': '5.0.0' });
    const etag = full.headers.get('etag')!;
    const clientResult = await load({
      url: options.url,
      paths: ['/api/client/features'],
      headers: { authorization: options.clientToken, 'unleash-client-spec': '5.0.0' },
      seconds: options.seconds,
      connections: 50,
    });
    const notModified = await load({
      url: options.url,
      paths: ['/api/client/features'],
      headers: { authorization: options.clientToken, 'unleash-client-spec': '5.0.0', 'if-none-match': etag },
      seconds: options.seconds,
      connections: 50,
    });
    return {
      frontendBodyBytes: Buffer.byteLength(sample.text),
      enabledFlagsInSample: sample.body.toggles.length,
      clientBodyBytes: Buffer.byteLength(full.text),
      ceiling: medianResult(runs.ceiling),
      ceilingBuffer: medianResult(runs.ceilingBuffer),
      ceilingMix: medianResult(runs.ceilingMix),
      frontend: medianResult(runs.frontend),
      frontendReplica: medianResult(runs.replica),
      frontendEdge: medianResult(runs.edge),
      clientFeatures: clientResult,
      clientFeatures304: notModified,
      rounds: runs.frontend.map((result, index) => ({
        ceiling: runs.ceiling[index]!.requestsPerSecond,
        ceilingP99: runs.ceiling[index]!.p99Ms,
        ceilingMix: runs.ceilingMix[index]!.requestsPerSecond,
        allInOne: result.requestsPerSecond,
        allInOneP99: result.p99Ms,
        replica: runs.replica[index]!.requestsPerSecond,
        replicaP99: runs.replica[index]!.p99Ms,
        edge: runs.edge[index]!.requestsPerSecond,
        edgeP99: runs.edge[index]!.p99Ms,
      })),
      mixes: mixGoals(runs, withWrk ? wrkRuns : null, withWrk ? wrkReplica : null),
      atRate: withWrk ? { rate, rows: tailsAtRate(atRate) } : null,
      frontendShareOfCeiling: round(median(shares.frontend), 2),
      replicaShareOfCeiling: round(median(shares.replica), 2),
      frontendShareOfMixCeiling: round(median(shares.frontendOfMix), 2),
      replicaShareOfMixCeiling: round(median(shares.replicaOfMix), 2),
      edgeShareOfCeiling: round(median(shares.edge), 2),
      edgeShareOfMixCeiling: round(median(shares.edgeOfMix), 2),
      edgeRssBeforeMiB: round(edgeRssBefore / 1048576),
      edgeRssAfterMiB: round(rssOf(options.edge.pid) / 1048576),
      rssBeforeMiB: round(rssBefore / 1048576),
      rssAfterMiB: round(rssOf(options.pid) / 1048576),
      replicaRssBeforeMiB: round(replicaRssBefore / 1048576),
      replicaRssAfterMiB: round(rssOf(options.replica.pid) / 1048576),
    };
  } finally {
    ceiling.stop();
  }
}

type Runs = { ceiling: LoadResult[]; ceilingMix: LoadResult[]; frontend: LoadResult[]; inside: LoadResult[] };

/** The median over rounds of a target's p99 against the ceiling's p99 of the same round (index by index). */
export function p99AgainstCeiling(served: readonly LoadResult[], ceiling: readonly LoadResult[]): number {
  return median(served.map((result, index) => result.p99Ms / Math.max(ceiling[index]!.p99Ms, 0.01)));
}

/** Each mix's runs beside its same-payload ceiling's: the bench mix against the mixed route, all inside against the string one. */
const mixesOf = (runs: Runs) =>
  [
    ['bench mix', runs.frontend, runs.ceilingMix],
    ['all inside', runs.inside, runs.ceiling],
  ] as const;

/**
 * The goal for each mix and load generator: /api/frontend (all-in-one; with wrk, the replica too) at least
 * half its same-payload ceiling and a p99 within 1.5 times the ceiling's own, each taken within a round and the
 * median round reported.
 */
function mixGoals(autocannon: Runs, wrk: Runs | null, wrkReplica: Runs | null) {
  const rows: Record<string, unknown>[] = [];
  for (const [generator, runs] of [
    ['autocannon', autocannon],
    ['wrk', wrk],
    ['wrk, replica', wrkReplica],
  ] as const) {
    if (!runs) continue;
    for (const [mix, served, ceiling] of mixesOf(runs)) {
      const share = median(served.map((result, index) => result.requestsPerSecond / ceiling[index]!.requestsPerSecond));
      const tail = p99AgainstCeiling(served, ceiling);
      rows.push({
        generator,
        mix,
        'req/s': medianResult(served).requestsPerSecond,
        'p99 ms': medianResult(served).p99Ms,
        'ceiling req/s': medianResult(ceiling).requestsPerSecond,
        'ceiling p99 ms': medianResult(ceiling).p99Ms,
        share: round(share, 2),
        'p99 / ceiling p99': round(tail, 2),
        'goal (>= 0.5, <= 1.5x)': share >= 0.5 && tail <= 1.5 ? 'met' : 'not met',
      });
    }
  }
  return rows;
}

/** Each mix's p99 against its ceiling's at the same offered load, taken within a round and the median round reported. */
function tailsAtRate(runs: Runs) {
  return mixesOf(runs).map(([mix, served, ceiling]) => {
    const edge = medianResult(served);
    const bare = medianResult(ceiling);
    return {
      mix,
      'req/s': edge.requestsPerSecond,
      'p50 ms': edge.p50Ms,
      'p99 ms': edge.p99Ms,
      'ceiling p50 ms': bare.p50Ms,
      'ceiling p99 ms': bare.p99Ms,
      'p99 / ceiling p99': round(p99AgainstCeiling(served, ceiling), 2),
    };
  });
}

/**
 * OFREP bulk evaluation (POST /ofrep/v1/evaluate/flags, every flag with its value) against a ceiling that takes the
 * same POSTs and serves the same answer (as a string or a Buffer, whichever is faster in the round), in interleaved
 * rounds.
 */
export async function measureOfrep(options: {
  url: string;
  edgeUrl?: string;
  frontendToken: string;
  seconds: number;
  rounds: number;
}) {
  const contexts = Array.from({ length: 1000 }, (_, index) =>
    JSON.stringify({
      context: { targetingKey: `user-${index}`, country: index % 3 === 0 ? 'US' : 'NO', appName: 'bench' },
    }),
  );
  const headers = { authorization: options.frontendToken, 'content-type': 'application/json' };
  const sample = await httpClient(options.url, headers).post('/ofrep/v1/evaluate/flags', contexts[1]);
  const ceiling = await startCeiling(sample.text);
  const runs = { ceiling: [] as LoadResult[], ofrep: [] as LoadResult[], edge: [] as LoadResult[] };
  const shares: number[] = [];
  const edgeShares: number[] = [];
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      // The ceiling takes the same POSTs (the bodies parsed) and sends the same answer.
      const ceilingLoad = (path: string) =>
        load({
          url: ceiling.url,
          paths: [path],
          method: 'POST',
          bodies: contexts,
          headers,
          seconds: options.seconds,
          connections: 50,
        });
      const ceilingResult = betterCeiling(await ceilingLoad('/ceiling'), await ceilingLoad('/ceiling-buffer'));
      const ofrep = await load({
        url: options.url,
        paths: ['/ofrep/v1/evaluate/flags'],
        method: 'POST',
        bodies: contexts,
        headers,
        seconds: options.seconds,
        connections: 50,
      });
      runs.ceiling.push(ceilingResult);
      runs.ofrep.push(ofrep);
      shares.push(ofrep.requestsPerSecond / ceilingResult.requestsPerSecond);
      if (options.edgeUrl) {
        const edge = await load({
          url: options.edgeUrl,
          paths: ['/ofrep/v1/evaluate/flags'],
          method: 'POST',
          bodies: contexts,
          headers,
          seconds: options.seconds,
          connections: 50,
        });
        runs.edge.push(edge);
        edgeShares.push(edge.requestsPerSecond / ceilingResult.requestsPerSecond);
      }
    }
  } finally {
    ceiling.stop();
  }
  return {
    bodyBytes: Buffer.byteLength(sample.text),
    ceiling: medianResult(runs.ceiling),
    ofrep: medianResult(runs.ofrep),
    edge: runs.edge.length > 0 ? medianResult(runs.edge) : undefined,
    shareOfCeiling: round(median(shares), 2),
    edgeShareOfCeiling: edgeShares.length > 0 ? round(median(edgeShares), 2) : undefined,
  };
}

/** Admin change to visible on /api/frontend, over `changes` toggles of one flag, polled every 2 ms. */
export async function measurePropagation(options: {
  admin: HttpClient;
  url: string;
  frontendToken: string;
  changes: number;
}) {
  const frontend = httpClient(options.url, { authorization: options.frontendToken });
  await options.admin.post('/api/admin/projects/default/features', { name: 'propagation-probe' });
  const samples: number[] = [];
  for (let index = 0; index < options.changes; index += 1) {
    const enabled = index % 2 === 0;
    await options.admin.post(
      `/api/admin/projects/default/features/propagation-probe/environments/development/${enabled ? 'on' : 'off'}`,
    );
    const start = performance.now();
    for (;;) {
      const reply = await frontend.get('/api/frontend/features/propagation-probe');
      if ((reply.status === 200) === enabled) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    samples.push(performance.now() - start);
  }
  const summary = summarize(samples);
  return { changes: options.changes, p50Ms: round(summary.p50), p99Ms: round(summary.p99), maxMs: round(summary.max) };
}
