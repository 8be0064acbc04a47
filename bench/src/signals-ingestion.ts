import { httpClient } from '@bunting/testing';
import autocannon from 'autocannon';

/**
 * Signal ingestion across many endpoints, each within its limit: `endpoints` endpoints with a token each,
 * the per-endpoint limit raised for the run (SIGNAL_ENDPOINT_RATE_LIMIT) so it is never the bottleneck; every
 * accepted signal is stored with its outbox message before the answer.
 */
export async function measureSignalIngestion(options: {
  url: string;
  adminToken: string;
  endpoints: number;
  seconds: number;
}) {
  const admin = httpClient(options.url, { authorization: options.adminToken });
  const targets: { path: string; authorization: string }[] = [];
  for (let index = 0; index < options.endpoints; index += 1) {
    const endpoint = await admin.post('/api/admin/signal-endpoints', { name: `bench-${index}` });
    const token = await admin.post(`/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'bench' });
    targets.push({ path: `/api/signal-endpoint/bench-${index}`, authorization: `Bearer ${token.body.token}` });
  }
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: 50,
    duration: options.seconds,
    method: 'POST',
    requests: [
      {
        setupRequest: (request) => {
          const target = targets[next++ % targets.length]!;
          request.path = target.path;
          request.headers = {
            ...request.headers,
            authorization: target.authorization,
            'content-type': 'application/json',
          };
          request.body = JSON.stringify({ type: 'deploy', data: { service: 'api', version: `1.${next}` } });
          return request;
        },
      },
    ],
  });
  return {
    endpoints: options.endpoints,
    acceptedPerSecond: Math.round(result['2xx'] / options.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    refused: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
