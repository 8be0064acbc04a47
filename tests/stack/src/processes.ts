import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bunting/testing';

const launcher = fileURLToPath(new URL('../../../launcher/src/main.ts', import.meta.url));
/** The SDK edge as deployed (standalone or frontend-api): built by `npm run build:edge` (buildEdge; the tests' global
 * setup builds it once). */
const builtEdge = fileURLToPath(new URL('../../../launcher/dist/edge.mjs', import.meta.url));

/** A service in its own process; `stop` sends SIGTERM and resolves with the exit code, `kill` is kill -9. */
export type ServiceProcess = {
  target: string;
  url: string;
  pid: number;
  stop: () => Promise<number | null>;
  kill: () => Promise<void>;
};

/**
 * Starts one service as its own process, the way deploy/ runs it, and waits until it is ready; with `waitFor`
 * 'serving', until its services answer (ready or not); with 'alive', until anything answers (it may still be waiting
 * for its dependencies). `root` runs it from another checkout of the project (a benchmark comparing two revisions);
 * `built` runs the built SDK edge (launcher/dist, made by buildEdge: the edge or frontend-api target) instead
 * of the sources; `nodeOptions` are passed to Node; `pollMs` is how often /ready is asked (100 ms; a benchmark
 * timing the start asks more often).
 */
export async function startServiceProcess(
  target: string,
  env: Record<string, string>,
  options: {
    waitFor?: 'ready' | 'serving' | 'alive';
    logFile?: string;
    root?: string;
    built?: boolean;
    nodeOptions?: string[];
    pollMs?: number;
  } = {},
): Promise<ServiceProcess> {
  const waitFor = options.waitFor ?? 'ready';
  const port = await freePort();
  // The log (stdout) goes to a file when a test reads it afterwards.
  const log = options.logFile ? openSync(options.logFile, 'a') : 'ignore';
  const main = options.built
    ? builtEdge
    : options.root === undefined
      ? launcher
      : join(options.root, 'launcher/src/main.ts');
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeOptions ?? []), main, `--target=${target}`], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, 'inherit'],
  });
  if (typeof log === 'number') closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${target} exited with code ${child.exitCode}`);
    try {
      const ready = await fetch(`${url}/ready`);
      if (ready.status === 200 || waitFor === 'alive') break;
      // Before its dependencies are there the process answers from a startup server, whose /ready says so.
      if (waitFor === 'serving' && !((await ready.json()) as { starting?: boolean }).starting) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
  return {
    target,
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A path-routing ingress like deploy/'s: the first rule whose prefix matches picks the upstream. */
export async function startIngress(
  routes: { prefix: string; upstream: string }[],
  fallback: string,
  listenOn?: number,
): Promise<{ url: string; close: () => Promise<void> }> {
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
  // A port chosen beforehand lets the services know the installation's address (BUNTING_URL) before it listens.
  const port = listenOn ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Builds the SDK edge as deployed (`npm run build:edge`), for startServiceProcess's `built`. */
export function buildEdge(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../../launcher/scripts/build-edge.ts', import.meta.url))], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
