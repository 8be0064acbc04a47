import autocannon from 'autocannon';
import { round, summarize } from './stats.ts';

export type LoadResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** 2xx answers: where 304s are wanted, these are the misses. */
  answered2xx?: number;
  bytesPerResponse: number;
};

/**
 * A fixed-time autocannon run; `paths` are spread over the requests so users differ. With `rate`, requests are
 * offered at that many per second (latencies corrected for coordinated omission) instead of as fast as answered.
 */
export async function load(options: {
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  method?: 'GET' | 'POST';
  bodies?: string[];
  rate?: number;
}): Promise<LoadResult> {
  let next = 0;
  const finished = Promise.withResolvers<autocannon.Result>();
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.seconds,
      headers: options.headers,
      ...(options.rate === undefined ? {} : { overallRate: options.rate }),
      requests: [
        {
          setupRequest: (request) => {
            const index = next++;
            request.path = options.paths[index % options.paths.length]!;
            if (options.method) request.method = options.method;
            if (options.bodies) request.body = options.bodies[index % options.bodies.length]!;
            return request;
          },
        },
      ],
    },
    (error, result) => (error ? finished.reject(error) : finished.resolve(result)),
  );
  // autocannon's histogram keeps whole milliseconds, where at 3-6 ms a p99 1.5x the bare route's is one step of it:
  // each answer's own time is kept instead. At an offered rate its histogram stays, as it corrects for coordinated
  // omission there.
  const times: number[] = [];
  if (options.rate === undefined) instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  const result = await finished.promise;
  const latency = times.length > 0 ? summarize(times) : result.latency;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: round(latency.p50, 2),
    p90Ms: round(latency.p90, 2),
    p99Ms: round(latency.p99, 2),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    answered2xx: result['2xx'],
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}
