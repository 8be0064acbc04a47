import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, startServiceProcess, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * A standalone edge told to stop while its upstream takes connections and never answers (a name no resolver answers
 * and a network dropping packets look the same to it) stops by itself, well within the 10 s Docker gives a container
 * before killing it. It waited for its upstream requests' own timeout before.
 */
const clientToken = 'default:development.edge-stop-client';
let upstream: TestStack;
let gate: Server;
let silent = false;
const sockets = new Set<Socket>();
const persistDir = mkdtempSync(join(tmpdir(), 'bunting-edge-stop-'));

beforeAll(async () => {
  upstream = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  // Passes connections on to the upstream until `silent`; from then on takes them and says nothing.
  gate = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (silent) return;
    const target = connect(Number(new URL(upstream.url).port), '127.0.0.1');
    sockets.add(target);
    target.on('close', () => sockets.delete(target));
    target.on('error', () => client.destroy());
    client.pipe(target).pipe(client);
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
}, 90_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  gate?.close();
  await upstream?.dispose();
  rmSync(persistDir, { recursive: true, force: true });
});

it('stops at once on SIGTERM while its upstream says nothing, after a short try to send the metrics it holds', async () => {
  const edge = await startServiceProcess(
    'edge',
    {
      UPSTREAM_URL: `http://127.0.0.1:${(gate.address() as AddressInfo).port}`,
      EDGE_TOKENS: clientToken,
      EDGE_PERSIST_DIR: persistDir,
      // Long enough that waiting for a request to time out shows.
      EDGE_REQUEST_TIMEOUT_MS: '30000',
      EDGE_METRICS_INTERVAL_MS: '600000',
    },
    { built: true },
  );
  try {
    await eventually(
      async () =>
        (await fetch(`${edge.url}/api/client/features`, { headers: { authorization: clientToken } })).status === 200,
    );
    // Metrics held for the upstream, which the stop tries to send.
    const posted = await fetch(`${edge.url}/api/client/metrics`, {
      method: 'POST',
      headers: { authorization: clientToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'edge-stop',
        instanceId: 'i1',
        bucket: {
          start: new Date().toISOString(),
          stop: new Date().toISOString(),
          toggles: { 'some-flag': { yes: 1, no: 0 } },
        },
      }),
    });
    expect(posted.status).toBeLessThan(300);
    silent = true;
    // The edge's stream to the upstream breaks; its reconnection waits on a connection that never answers.
    for (const socket of sockets) socket.destroy();
    await eventually(async () => sockets.size > 0, { intervalMs: 20 });

    const stoppedAt = Date.now();
    const code = await edge.stop();
    const tookMs = Date.now() - stoppedAt;
    console.log(`edge stopped ${tookMs} ms after SIGTERM with its upstream silent`);
    expect(code).toBe(0);
    expect(tookMs).toBeLessThan(8_000);
  } finally {
    await edge.kill();
  }
}, 60_000);
