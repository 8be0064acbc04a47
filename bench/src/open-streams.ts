import { request, type ClientRequest } from 'node:http';
import { httpClient } from '@bunting/test-stack';
import { rssOf } from './sdk-edge.ts';
import { round, summarize } from './stats.ts';

type Stream = { request: ClientRequest; connected: Promise<void>; updatedAt?: number };

function openStream(url: string, token: string, onUpdate: (stream: Stream) => void): Stream {
  let connected!: () => void;
  const stream: Stream = {
    request: undefined as unknown as ClientRequest,
    connected: new Promise((resolve) => {
      connected = resolve;
    }),
  };
  stream.request = request(
    `${url}/api/client/streaming`,
    { agent: false, headers: { authorization: token, accept: 'text/event-stream' } },
    (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (chunk.includes('unleash-connected')) connected();
        if (chunk.includes('unleash-updated') && stream.updatedAt === undefined) {
          stream.updatedAt = performance.now();
          onUpdate(stream);
        }
      });
      response.on('error', () => undefined);
    },
  );
  stream.request.on('error', () => undefined);
  stream.request.end();
  return stream;
}

async function streamsOpenOn(url: string): Promise<number> {
  const text = (await httpClient(url).get('/internal-backstage/prometheus')).text;
  return Number(/^bunting_sdk_streams_open (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

/**
 * `count` SDK streams (`/api/client/streaming` with `token`) on one SDK edge process: the memory each holds, how long
 * `change` (an admin request that changes a flag the token sees) takes to reach every one of them, timed from the
 * request, and whether the process lets them go when their clients leave. The clients run in the bench's process.
 */
export async function measureStreams(
  target: { url: string; pid: number },
  token: string,
  count: number,
  change: () => Promise<unknown>,
) {
  const before = rssOf(target.pid) / 1048576;
  let heard = 0;
  let allHeard!: () => void;
  const everyone = new Promise<void>((resolve) => {
    allHeard = resolve;
  });
  const streams: Stream[] = [];
  for (let index = 0; index < count; index += 1) {
    streams.push(
      openStream(target.url, token, () => {
        heard += 1;
        if (heard === count) allHeard();
      }),
    );
    // Opened in waves so the process's accept queue is not what is measured.
    if (index % 500 === 499) await Promise.all(streams.slice(-500).map((stream) => stream.connected));
  }
  await Promise.all(streams.map((stream) => stream.connected));
  const held = rssOf(target.pid) / 1048576;
  const start = performance.now();
  await change();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([everyone, new Promise<void>((resolve) => (timer = setTimeout(resolve, 30_000)))]);
  clearTimeout(timer);
  const delays = streams.filter((stream) => stream.updatedAt !== undefined).map((stream) => stream.updatedAt! - start);
  const summary = summarize(delays);
  for (const stream of streams) stream.request.destroy();
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
    openAfterClientsLeft: await streamsOpenOn(target.url),
  };
}
