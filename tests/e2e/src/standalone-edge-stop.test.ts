import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Whether this process may make the namespaces the next test runs the edge in (root, with util-linux's unshare). */
const canIsolate =
  process.getuid?.() === 0 && spawnSync('unshare', ['-m', '-n', 'true'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!canIsolate)('an edge whose upstream name no resolver answers', () => {
  /**
   * Node's exit waits for a name lookup under way in its thread pool, and glibc waits for a resolver that does not
   * answer for 5 s, twice: in Docker, an edge stopped while its upstream's container was gone took 10.5 s, past the
   * 10 s Docker waits before it kills. The edge runs here in namespaces of its own (a network with only its loopback, a
   * resolv.conf naming a resolver there that reads queries and never answers), so its first lookup of the upstream
   * hangs for 10 s.
   */
  it('stops at once on SIGTERM, its stop logged, ending by the signal instead of waiting for the lookup', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'bunting-edge-lookup-'));
    const resolvConf = join(directory, 'resolv.conf');
    writeFileSync(resolvConf, 'nameserver 127.0.0.1\noptions timeout:5 attempts:2\n');
    // Reads queries and never answers; gone after a minute whatever happens to the test.
    const silentResolver = `require('node:dgram').createSocket('udp4').bind(53, '127.0.0.1'); setTimeout(() => process.exit(), 60000)`;
    const main = fileURLToPath(new URL('../../../launcher/src/main.ts', import.meta.url));
    const script = [
      'ip link set lo up',
      `mount --bind ${resolvConf} /etc/resolv.conf`,
      `{ ${JSON.stringify(process.execPath)} -e ${JSON.stringify(silentResolver)} & }`,
      // The resolver's socket bound before the edge asks it anything.
      'sleep 0.3',
      `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} --target=edge`,
    ].join(' && ');
    // Without a fork: unshare becomes the shell, which becomes the edge, so the signal reaches the edge itself.
    const edge = spawn('unshare', ['-m', '-n', 'sh', '-c', script], {
      env: {
        ...process.env,
        UPSTREAM_URL: 'http://upstream.bunting-test.invalid:4242',
        EDGE_TOKENS: clientToken,
        EDGE_PERSIST_DIR: directory,
        PORT: '4242',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    edge.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    edge.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      edge.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      // Listening means it has begun to follow its upstream: the lookup is under way.
      await eventually(async () => output.includes('Server listening'), { timeoutMs: 30_000, intervalMs: 20 });
      const stoppedAt = Date.now();
      edge.kill('SIGTERM');
      const { code, signal } = await ended;
      const tookMs = Date.now() - stoppedAt;
      console.log(`edge stopped ${tookMs} ms after SIGTERM during a name lookup (code ${code}, signal ${signal})`);
      expect(output).toContain('"msg":"stopped"');
      expect(tookMs).toBeLessThan(3_000);
      expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    } finally {
      edge.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);
});
