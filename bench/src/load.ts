import autocannon from 'autocannon';

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
  const result = await autocannon({
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
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    answered2xx: result['2xx'],
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}
