import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from './nats-server.ts';

const launcher = fileURLToPath(new URL('../../../launcher/src/main.ts', import.meta.url));

export type ServiceProcess = { target: string; url: string; pid: number; stop: () => Promise<void> };

/** Starts one service as its own process, the way deploy/ runs it, and waits until it is ready. */
export async function startServiceProcess(target: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [launcher, `--target=${target}`], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${target} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    target,
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A path-routing ingress like deploy/'s: the first rule whose prefix matches picks the upstream. */
export async function startIngress(routes: { prefix: string; upstream: string }[], fallback: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const upstream = new URL(routes.find((route) => path.startsWith(route.prefix))?.upstream ?? fallback);
    const proxied = httpRequest(
      { host: upstream.hostname, port: upstream.port, path, method: incoming.method, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    proxied.on('error', () => {
      outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(proxied);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
