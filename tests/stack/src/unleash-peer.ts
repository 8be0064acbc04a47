import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '@bunting/testing';

export type UnleashPeer = { url: string; adminToken: string; stop: () => Promise<void> };

/**
 * The real Unleash 8.2 server (the `unleash-server` package, a test-only dependency) in its own process on a spare
 * port, with a database of its own made for it and dropped after: the reference, run as a peer, not imitated.
 * `tokens` are created at start (INIT_*_API_TOKENS), as an Unleash operator would.
 */
export async function startUnleashPeer(tokens: { backend?: string[]; frontend?: string[] } = {}): Promise<UnleashPeer> {
  const port = await freePort();
  const database = `unleash_peer_${process.pid}_${port}`;
  const psql = (sql: string) =>
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'root', '-d', 'postgres', '-qc', sql], { stdio: 'ignore' });
  psql(`CREATE DATABASE ${database}`);
  const adminToken = `*:*.unleash-peer-admin-${port}`;
  // The package's exports name only its library: its start script is found beside it.
  const server = join(dirname(dirname(createRequire(import.meta.url).resolve('unleash-server'))), 'server.js');
  const child = spawn(process.execPath, [server], {
    env: {
      PATH: process.env.PATH,
      TZ: 'UTC',
      PORT: String(port),
      DATABASE_URL: `postgres://root@127.0.0.1:5432/${database}`,
      DATABASE_SSL: 'false',
      LOG_LEVEL: 'error',
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_BACKEND_API_TOKENS: (tokens.backend ?? []).join(','),
      INIT_FRONTEND_API_TOKENS: (tokens.frontend ?? []).join(','),
      // Metrics reach the admin API within a second, not the default minute.
      UNLEASH_METRICS_FLUSH_INTERVAL: '1000',
      CHECK_VERSION: 'false',
      SEND_TELEMETRY: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Unleash exited with code ${child.exitCode} before it was ready`);
    }
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not listening yet (its migrations run first)
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('Unleash was not ready within 120 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, adminToken, stop };
}
