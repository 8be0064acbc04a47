import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkMetrics } from '@bunting/contracts';
import { createLogger, createMetrics } from '@bunting/platform';
import { createMetricsForwarder } from './metrics-forwarder.ts';
import { createUpstream } from './upstream-http.ts';

/** A real HTTP upstream that takes every bulk post and keeps its body. */
let server: Server;
const posted: BulkMetrics[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      posted.push(JSON.parse(text) as BulkMetrics);
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the edge forwarding a scoped token's counts", () => {
  it("drops a name it could not place when it came that turned out to be another project's flag", async () => {
    const upstream = createUpstream({
      upstreamUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
      maxUpstreamBytes: 1_000_000,
      requestTimeoutMs: 2000,
    });
    // What the edge holds, changed by the test as a feed would change it.
    const held = new Map([['alpha-flag', 'alpha']]);
    const metrics = createMetrics({ defaultMetrics: false });
    const forwarder = createMetricsForwarder({
      upstream,
      log: createLogger('silent', 'test'),
      metrics,
      config: { metricsIntervalMs: 60_000, metricsLimit: 1000 },
      tokenFor: (environment) => ({ secret: 'edge-secret', type: 'client', environment, projects: ['*'] }),
      projectOf: (_environment, name) => held.get(name),
    });
    const bucket = (toggles: Record<string, { yes: number; no: number }>) => ({
      appName: 'app',
      bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles },
    });
    const counts = { 'alpha-flag': { yes: 1, no: 0 }, 'new-beta': { yes: 7, no: 0 }, 'new-alpha': { yes: 2, no: 0 } };
    await forwarder.take({
      kind: 'client-metrics',
      environment: 'development',
      tokenName: 'alpha-sdk',
      projects: ['alpha'],
      body: bucket(counts),
    });
    // A token of every project may report on any flag.
    await forwarder.take({
      kind: 'client-metrics',
      environment: 'development',
      tokenName: 'all-sdk',
      projects: ['*'],
      body: bucket({ 'new-beta': { yes: 1, no: 0 } }),
    });
    // Before the counts leave, the edge hears of two new flags: one of beta, one of alpha.
    held.set('new-beta', 'beta');
    held.set('new-alpha', 'alpha');
    await forwarder.flush();
    const sent = posted.flatMap((body) => body.metrics ?? []).map((entry) => [entry.featureName, entry.yes]);
    expect(sent.sort()).toEqual([
      ['alpha-flag', 1],
      ['new-alpha', 2],
      ['new-beta', 1],
    ]);
    expect(await metrics.registry.getSingleMetricAsString('bunting_edge_metrics_dropped_total')).toMatch(
      /reason="other_project"} 1/,
    );
    await forwarder.stop();
  });
});
