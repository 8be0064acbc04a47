import { Worker } from 'node:worker_threads';
import { metricSamples } from '@bunting/test-stack';
import { rssOf } from './sdk-edge.ts';
import { round, summarize } from './stats.ts';

/** One sample of the process's Prometheus exposition (the whole series name with its labels), NaN if absent. */
async function sampleOn(url: string, series: string): Promise<number> {
  return (await metricSamples(url)).get(series) ?? Number.NaN;
}

const streamsOpenOn = (url: string) => sampleOn(url, 'bunting_sdk_streams_open');
/** The edge's own part: from compiling the change until it had written it to every open stream, in ms. */
const notifyMsOn = async (url: string, environment: string) =>
  (await sampleOn(url, `bunting_snapshot_notify_seconds{environment="${environment}"}`)) * 1000;

/** How many worker threads hold the clients (BENCH_STREAM_WORKERS, default 2: one a core here). */
const workers = Math.max(1, Number(process.env.BENCH_STREAM_WORKERS ?? 2));

type Clients = { worker: Worker; open: Promise<void>; allHeard: Promise<void> };

function startClients(url: string, token: string, count: number): Clients {
  const worker = new Worker(new URL('./stream-clients.ts', import.meta.url), { workerData: { url, token, count } });
  const once = (type: string) =>
    new Promise<void>((resolve, reject) => {
      const listen = (message: { type: string }) => {
        if (message.type !== type) return;
        worker.off('message', listen);
        resolve();
      };
      worker.on('message', listen);
      worker.once('error', reject);
    });
  return { worker, open: once('open'), allHeard: once('all-heard') };
}

/** When each of a worker's streams first heard of the change, as wall-clock milliseconds. */
function collect(clients: Clients): Promise<number[]> {
  return new Promise((resolve) => {
    const listen = (message: { type: string; at?: number[] }) => {
      if (message.type !== 'heard') return;
      clients.worker.off('message', listen);
      resolve(message.at!);
    };
    clients.worker.on('message', listen);
    clients.worker.postMessage({ type: 'collect' });
  });
}

/**
 * `count` SDK streams (`/api/client/streaming` with `token`) on one SDK edge process: the memory each holds, how long
 * `change` (an admin request that changes a flag the token sees) takes to reach every one of them, timed from the
 * request, and whether the process lets them go when their clients leave. The clients run in worker threads of the
 * bench's process, on the same machine: ten thousand clients in one thread took 300 ms to read what the edge wrote
 * in 50-65 ms, and that was most of what was timed.
 */
export async function measureStreams(
  target: { url: string; pid: number },
  token: string,
  count: number,
  change: () => Promise<unknown>,
  environment = 'development',
) {
  const before = rssOf(target.pid) / 1048576;
  const shares = Array.from(
    { length: workers },
    (_, index) => Math.floor(count / workers) + (index < count % workers ? 1 : 0),
  ).filter((share) => share > 0);
  const clients: Clients[] = [];
  // One worker opens its streams at a time, so the edge's accept queue is not what is measured.
  for (const share of shares) {
    const started = startClients(target.url, token, share);
    clients.push(started);
    await started.open;
  }
  const held = rssOf(target.pid) / 1048576;
  const start = performance.timeOrigin + performance.now();
  // The process dates its install by the system clock, which drifts from the monotonic one the clients use.
  const startedAt = Date.now();
  await change();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(clients.map((client) => client.allHeard)),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 30_000))),
  ]);
  clearTimeout(timer);
  // The snapshot's age, read now, dates its install: the time the change took to reach the process. The process
  // reads its clock somewhere between asking and the answer (tens of ms on a busy host: the clock read before asking
  // gave installs before the change), so the middle is taken and half the scrape's time is the error either way.
  const askedAt = Date.now();
  const ageMs = (await sampleOn(target.url, `bunting_snapshot_age_seconds{environment="${environment}"}`)) * 1000;
  const answeredAt = Date.now();
  const installedMs = (askedAt + answeredAt) / 2 - ageMs - startedAt;
  const delays = (await Promise.all(clients.map(collect))).flat().map((at) => at - start);
  const summary = summarize(delays);
  const edgeWritesMs = await notifyMsOn(target.url, environment);
  for (const client of clients) client.worker.postMessage({ type: 'close' });
  await Promise.all(clients.map((client) => new Promise((resolve) => client.worker.once('exit', resolve))));
  // Streams whose clients went away are released: wait for the process to count none.
  const released = performance.now();
  while ((await streamsOpenOn(target.url)) > 0 && performance.now() - released < 20_000)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    streams: count,
    heard: delays.length,
    kibPerStream: round(((held - before) * 1024) / count, 1),
    p50Ms: round(summary.p50),
    p99Ms: round(summary.p99),
    maxMs: round(summary.max),
    installedMs: round(installedMs),
    installedWithinMs: round((answeredAt - askedAt) / 2),
    edgeWritesMs: round(edgeWritesMs),
    openAfterClientsLeft: await streamsOpenOn(target.url),
  };
}
