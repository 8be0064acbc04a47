// What the deploy test's steps share: commands, waiting for a condition, the API through the ingress, and a load
// of SDK reads and admin writes that runs while a step changes the deployment.
import { execFileSync, spawn } from 'node:child_process';

export const BASE = `http://127.0.0.1:${process.env.DEPLOY_PORT ?? '4242'}`;
export const ADMIN_TOKEN = '*:*.deploy-test-admin';
const started = Date.now();
export const say = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; quiet?: boolean; input?: Buffer } = {},
): string {
  return execFileSync(command, args, {
    cwd: options.cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: process.env,
    stdio: [options.input ? 'pipe' : 'ignore', 'pipe', options.quiet ? 'pipe' : 'inherit'],
    ...(options.input ? { input: options.input } : {}),
  });
}

/**
 * A command run without blocking: the load generators go on meanwhile. Its output is shown line by line, unless
 * quiet.
 */
export function runAsync(
  command: string,
  args: string[],
  options: { cwd?: string; prefix?: string; quiet?: boolean } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (options.quiet) return;
      for (const line of chunk.toString().split('\n').filter(Boolean)) say(`${options.prefix ?? ''}${line}`);
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${errors.slice(-2000)}`)),
    );
  });
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`deploy test: ${message}`);
}
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await sleep(250);
  }
  throw new Error(
    `deploy test: ${what} did not happen within ${timeoutMs / 1000} s${last ? ` (${String(last)})` : ''}`,
  );
}

export type Answer = { status: number; body: any; headers: Headers };
export async function api(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: ADMIN_TOKEN },
): Promise<Answer> {
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The flags an SDK is served through the ingress. */
export async function servedFlags(frontendToken: string): Promise<string[]> {
  const answer = await api('GET', '/api/frontend', undefined, { authorization: frontendToken });
  check(answer.status === 200, `/api/frontend answered ${answer.status}`);
  return (answer.body.toggles as { name: string }[]).map((toggle) => toggle.name).sort();
}

export type Compose = {
  /** Runs docker-compose and waits (blocking: not while a load runs). */
  (...args: string[]): string;
  /** Runs docker-compose without blocking. */
  async: (...args: string[]) => Promise<void>;
  containers: (service: string) => string[];
  project: string;
  dir: string;
};
export function composeIn(dir: string, project: string): Compose {
  const compose = ((...args: string[]) =>
    run('docker-compose', ['-p', project, ...args], { cwd: dir, quiet: true })) as Compose;
  compose.async = (...args) =>
    runAsync('docker-compose', ['-p', project, ...args], { cwd: dir, prefix: '  compose: ' });
  compose.containers = (service) => compose('ps', '-q', service).split('\n').filter(Boolean);
  compose.project = project;
  compose.dir = dir;
  return compose;
}

export type LoadReport = {
  reads: number;
  failedReads: number;
  p99: number;
  slowest: number;
  failures: [string, number][];
  acknowledged: string[];
  failedWrites: number;
};

/**
 * SDK reads of /api/frontend one after another (each must answer 200 within 5 s and, when `mustServe` is given,
 * still serve that flag), and, when `writePrefix` is given, flags created one after another through the admin API.
 */
export function startLoad(options: { frontendToken: string; mustServe?: string; writePrefix?: string }) {
  let stopped = false;
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const acknowledged: string[] = [];
  let failedReads = 0;
  let failedWrites = 0;
  const fail = (what: string, why: string) => {
    say(`  ${what} failed: ${why}`);
    failures.set(`${what}: ${why}`, (failures.get(`${what}: ${why}`) ?? 0) + 1);
  };
  const reader = (async () => {
    while (!stopped) {
      const begin = Date.now();
      try {
        const answer = await fetch(`${BASE}/api/frontend`, {
          headers: { authorization: options.frontendToken },
          signal: AbortSignal.timeout(5_000),
        });
        const text = await answer.text();
        if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
        if (options.mustServe && !text.includes(`"${options.mustServe}"`))
          throw new Error(`${options.mustServe} not served`);
      } catch (error) {
        failedReads += 1;
        fail('an SDK read', String(error));
      }
      latencies.push(Date.now() - begin);
      await sleep(20);
    }
  })();
  const writer = (async () => {
    if (!options.writePrefix) return;
    for (let index = 0; !stopped; index += 1) {
      const name = `${options.writePrefix}-${index}`;
      try {
        const answer = await api('POST', '/api/admin/projects/default/features', { name });
        if (answer.status !== 201)
          throw new Error(`HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        acknowledged.push(name);
      } catch (error) {
        failedWrites += 1;
        fail(`writing ${name}`, String(error));
      }
      await sleep(100);
    }
  })();
  return {
    stop: async (): Promise<LoadReport> => {
      stopped = true;
      await Promise.all([reader, writer]);
      latencies.sort((a, b) => a - b);
      return {
        reads: latencies.length,
        failedReads,
        p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
        slowest: latencies.at(-1) ?? 0,
        failures: [...failures],
        acknowledged,
        failedWrites,
      };
    },
  };
}

/** Every named flag exists and its creation is in the event log. */
export async function allInTheLog(names: readonly string[], timeoutMs = 120_000): Promise<void> {
  await until(
    `the ${names.length} flags' creations in the event log`,
    async () => {
      const found = new Set<string>();
      for (let offset = 0; ; offset += 1000) {
        const page = (await api('GET', `/api/admin/search/events?type=IS:feature-created&limit=1000&offset=${offset}`))
          .body.events as { featureName: string }[];
        for (const event of page) found.add(event.featureName);
        if (page.length < 1000) break;
      }
      return names.every((name) => found.has(name));
    },
    timeoutMs,
  );
  for (const name of names) {
    const answer = await api('GET', `/api/admin/projects/default/features/${name}`);
    check(answer.status === 200, `the acknowledged flag ${name} answers ${answer.status}`);
  }
}

/**
 * Removes what earlier deploy tests left behind when they were killed before their own `down -v` (their project is
 * `<prefix><pid>` and that process is gone): their containers would hold the ingress port and their volumes the disk.
 */
export function removeLeftovers(prefix: string): string[] {
  const projects = new Set(
    run(
      'docker',
      [
        'ps',
        '-a',
        '--filter',
        'label=com.docker.compose.project',
        '--format',
        '{{.Label "com.docker.compose.project"}}',
      ],
      {
        quiet: true,
      },
    )
      .split('\n')
      .concat(
        run(
          'docker',
          [
            'volume',
            'ls',
            '--filter',
            'label=com.docker.compose.project',
            '--format',
            '{{.Label "com.docker.compose.project"}}',
          ],
          {
            quiet: true,
          },
        ).split('\n'),
      )
      .filter((project) => project.startsWith(prefix) && !alive(Number(project.slice(prefix.length)))),
  );
  for (const project of projects) {
    const label = `label=com.docker.compose.project=${project}`;
    const containers = run('docker', ['ps', '-a', '-q', '--filter', label], { quiet: true })
      .split('\n')
      .filter(Boolean);
    if (containers.length > 0) run('docker', ['rm', '-f', '-v', ...containers], { quiet: true });
    const volumes = run('docker', ['volume', 'ls', '-q', '--filter', label], { quiet: true })
      .split('\n')
      .filter(Boolean);
    if (volumes.length > 0) run('docker', ['volume', 'rm', '-f', ...volumes], { quiet: true });
    const networks = run('docker', ['network', 'ls', '-q', '--filter', label], { quiet: true })
      .split('\n')
      .filter(Boolean);
    if (networks.length > 0) run('docker', ['network', 'rm', ...networks], { quiet: true });
  }
  return [...projects];
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
