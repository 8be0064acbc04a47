import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A private nats-server with JetStream on a spare port, which a fault test may stop and start again. */
export async function startPrivateNats() {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'bunting-nats-'));
  let child: ChildProcess | undefined;

  async function start() {
    if (child && child.exitCode === null) return;
    child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    await waitForPort(port, true);
  }
  async function stop() {
    if (!child || child.exitCode !== null) {
      child = undefined;
      return;
    }
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    child = undefined;
    await waitForPort(port, false);
  }
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    dispose: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

export async function waitForPort(port: number, open: boolean) {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (isOpen === open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`port ${port} did not ${open ? 'open' : 'close'} in time`);
}

export type ClusterNode = {
  name: string;
  port: number;
  /** SIGKILL: the node dies without a goodbye, as when its machine is lost. */
  kill: () => Promise<void>;
  start: () => Promise<void>;
  /** Deletes the node's JetStream store (a lost disk); only while it is down. */
  wipe: () => void;
  running: () => boolean;
};

/**
 * Three nats-server processes on spare ports forming one JetStream cluster (Raft), for tests that lose a node, two, or
 * a node's disk. `url` names all three, as a deployment's NATS_URL would.
 */
export async function startPrivateNatsCluster(size = 3) {
  const nodes = await Promise.all(
    Array.from({ length: size }, async (_, index) => ({
      name: `n${index + 1}`,
      port: await freePort(),
      clusterPort: await freePort(),
      storeDir: mkdtempSync(join(tmpdir(), `bunting-nats-n${index + 1}-`)),
    })),
  );
  const children = new Map<string, ChildProcess>();
  const routes = nodes.map((node) => `nats://127.0.0.1:${node.clusterPort}`).join(',');

  async function start(node: (typeof nodes)[number]) {
    const existing = children.get(node.name);
    if (existing && existing.exitCode === null && existing.signalCode === null) return;
    const child = spawn(
      '/usr/sbin/nats-server',
      [
        '--name',
        node.name,
        '-a',
        '127.0.0.1',
        '-p',
        String(node.port),
        '-js',
        '-sd',
        node.storeDir,
        '--cluster_name',
        'bunting-test',
        '--cluster',
        `nats://127.0.0.1:${node.clusterPort}`,
        '--routes',
        routes,
      ],
      { stdio: 'ignore' },
    );
    children.set(node.name, child);
    await waitForPort(node.port, true);
  }
  async function kill(node: (typeof nodes)[number]) {
    const child = children.get(node.name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await waitForPort(node.port, false);
  }
  await Promise.all(nodes.map(start));
  const handles: ClusterNode[] = nodes.map((node) => ({
    name: node.name,
    port: node.port,
    kill: () => kill(node),
    start: () => start(node),
    wipe: () => {
      rmSync(node.storeDir, { recursive: true, force: true });
      mkdirSync(node.storeDir, { recursive: true });
    },
    running: () => {
      const child = children.get(node.name);
      return !!child && child.exitCode === null && child.signalCode === null;
    },
  }));
  return {
    url: nodes.map((node) => `nats://127.0.0.1:${node.port}`).join(','),
    nodes: handles,
    node: (name: string) => handles.find((handle) => handle.name === name)!,
    dispose: async () => {
      await Promise.all(nodes.map(kill));
      for (const node of nodes) rmSync(node.storeDir, { recursive: true, force: true });
    },
  };
}
