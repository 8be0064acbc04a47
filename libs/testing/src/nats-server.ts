import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
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
    child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
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

async function waitForPort(port: number, open: boolean) {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (isOpen === open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`port ${port} did not ${open ? 'open' : 'close'} in time`);
}
