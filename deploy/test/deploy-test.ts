// The deployment run for real (see run.sh): the image built from a clean copy of what is committed, docker-compose
// up on the stand-in images, then what a user does through the ingress, scaling, node and database faults, and
// `down -v`. Prints each step with its time; exits non-zero at the first thing that is not as it should be.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROJECT = `buntingdeploy${process.pid}`;
const BASE = `http://127.0.0.1:${process.env.DEPLOY_PORT ?? '4242'}`;
const ADMIN_TOKEN = '*:*.deploy-test-admin';
const started = Date.now();
const say = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);

function run(command: string, args: string[], options: { cwd?: string; quiet?: boolean } = {}): string {
  return execFileSync(command, args, { cwd: options.cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', options.quiet ? 'pipe' : 'inherit'], env: process.env });
}
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`deploy test: ${message}`);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> {
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
  throw new Error(`deploy test: ${what} did not happen within ${timeoutMs / 1000} s${last ? ` (${String(last)})` : ''}`);
}
async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: ADMIN_TOKEN }) {
  const response = await fetch(`${BASE}${path}`, {
    method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let parsed: any = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: response.status, body: parsed, headers: response.headers };
}

const clean = mkdtempSync(join(tmpdir(), 'bunting-deploy-'));
const deployDir = join(clean, 'deploy');
const compose = (...args: string[]) => run('docker-compose', ['-p', PROJECT, ...args], { cwd: deployDir, quiet: true });
const containers = (service: string) => compose('ps', '-q', service).split('\n').filter(Boolean);

try {
  run('sh', ['-c', `git archive HEAD | tar -x -C ${clean}`]);
  say('clean copy of HEAD made');
  const buildStart = Date.now();
  run('docker', ['build', '--network', 'host', '-q', '-f', 'deploy/Dockerfile', '-t', 'bunting:latest', '.'], { cwd: clean, quiet: true });
  const size = Number(run('docker', ['image', 'inspect', 'bunting:latest', '--format', '{{.Size}}'], { quiet: true }).trim());
  say(`image built in ${((Date.now() - buildStart) / 1000).toFixed(0)} s, ${(size / 1024 / 1024).toFixed(0)} MB`);

  process.env.INIT_ADMIN_API_TOKENS = ADMIN_TOKEN;
  const upStart = Date.now();
  compose('up', '-d', '--no-build');
  await until('the stack answering through the ingress', async () => (await api('GET', '/api/admin/projects')).status === 200, 180_000);
  say(`up and answering in ${((Date.now() - upStart) / 1000).toFixed(0)} s`);

  // The console loads and signs in with the default admin.
  const page = await fetch(`${BASE}/login`);
  check(page.status === 200 && (await page.text()).includes('<div id="root">'), 'the console page did not load');
  const login = await api('POST', '/auth/simple/login', { username: 'admin', password: 'unleash4all' }, {});
  check(login.status === 200, `signing in answered ${login.status}`);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  check((await api('GET', '/api/admin/user', undefined, { cookie })).status === 200, 'the session does not work');
  say('console loads; password sign-in works');

  // A flag made and switched on is served by every frontend-api replica.
  check((await api('POST', '/api/admin/projects/default/features', { name: 'deploy-flag' })).status === 201, 'flag not created');
  check((await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/strategies', { name: 'default', constraints: [] })).status === 200, 'strategy not added');
  check((await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/on')).status === 200, 'flag not switched on');
  const frontendToken = (await api('POST', '/api/admin/api-tokens', { tokenName: 'deploy', type: 'frontend', environment: 'development', projects: ['*'] })).body.secret as string;
  const replicas = containers('frontend-api');
  check(replicas.length === 3, `expected 3 frontend-api replicas, found ${replicas.length}`);
  const servedBy = async (container: string) => {
    const script = `fetch('http://127.0.0.1:4242/api/frontend', { headers: { authorization: ${JSON.stringify(frontendToken)} } }).then((r) => r.json()).then((b) => console.log(b.toggles.map((t) => t.name).join(',')))`;
    return run('docker', ['exec', container, 'node', '-e', script], { quiet: true }).includes('deploy-flag');
  };
  for (const replica of replicas) await until(`replica ${replica.slice(0, 12)} serving the flag`, () => servedBy(replica), 30_000);
  say('a flag switched on is served by each of the 3 frontend-api replicas');

  // Scaling frontend-api 3 -> 1 -> 3 while an SDK keeps asking: every request answered, promptly.
  let stop = false;
  const latencies: number[] = [];
  let failed = 0;
  const failures = new Map<string, number>();
  const fail = (why: string) => {
    say(`  a request failed: ${why}`);
    failed += 1;
    failures.set(why, (failures.get(why) ?? 0) + 1);
  };
  const reader = (async () => {
    while (!stop) {
      const begin = Date.now();
      try {
        const answer = await fetch(`${BASE}/api/frontend`, { headers: { authorization: frontendToken }, signal: AbortSignal.timeout(5_000) });
        await answer.arrayBuffer();
        if (answer.status !== 200) fail(`HTTP ${answer.status}`);
      } catch (error) {
        fail(String(error));
      }
      latencies.push(Date.now() - begin);
      await sleep(20);
    }
  })();
  say('scaling frontend-api to 1');
  compose('up', '-d', '--no-build', '--no-recreate', '--scale', 'frontend-api=1', 'frontend-api');
  say('scaled to 1');
  await sleep(3_000);
  say('scaling frontend-api to 3');
  compose('up', '-d', '--no-build', '--no-recreate', '--scale', 'frontend-api=3', 'frontend-api');
  say('scaled to 3');
  await until('3 frontend-api replicas healthy again', async () => run('docker', ['ps', '--filter', `name=${PROJECT}_frontend-api`, '--filter', 'health=healthy', '-q'], { quiet: true }).split('\n').filter(Boolean).length === 3, 120_000);
  await sleep(3_000);
  stop = true;
  await reader;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
  say(`scaled frontend-api 3 -> 1 -> 3 under ${latencies.length} requests: ${failed} failed, p99 ${p99} ms, slowest ${latencies.at(-1)} ms`);
  check(failed === 0, `${failed} SDK requests failed while scaling: ${JSON.stringify([...failures])}`);

  // Each NATS node stopped in turn during writes: nothing lost, every event in the log.
  for (const node of ['nats-1', 'nats-2', 'nats-3']) {
    compose('stop', node);
    for (let index = 0; index < 5; index += 1) {
      const name = `deploy-${node}-${index}`;
      const created = await until(`creating ${name} with ${node} down`, async () => {
        const answer = await api('POST', '/api/admin/projects/default/features', { name });
        return answer.status === 201 || answer.status === 409 ? answer : false;
      }, 30_000);
      check(created.status === 201 || created.status === 409, `creating ${name} answered ${created.status}`);
    }
    compose('start', node);
    say(`${node} stopped during 5 writes, started again`);
  }
  const wanted = ['nats-1', 'nats-2', 'nats-3'].flatMap((node) => Array.from({ length: 5 }, (_, index) => `deploy-${node}-${index}`));
  const logged = await until('every write of the NATS stops in the event log', async () => {
    const events = (await api('GET', '/api/admin/search/events?type=IS:feature-created&limit=100')).body.events as { featureName: string }[];
    const names = new Set(events.map((event) => event.featureName));
    return wanted.every((name) => names.has(name)) && names;
  }, 120_000);
  say(`all ${wanted.length} writes made while a NATS node was down reached the event log (${logged.size} flags logged)`);

  // Postgres restarted: writes answer 503 quickly while it is away, and work again after.
  compose('stop', 'postgres');
  const begin = Date.now();
  const away = await api('POST', '/api/admin/projects/default/features', { name: 'deploy-while-db-down' }).catch((error: unknown) => ({ status: 0, body: String(error), headers: new Headers() }));
  const answeredIn = Date.now() - begin;
  check(away.status === 503 && away.headers.get('retry-after') !== null, `a write with Postgres away answered ${away.status}`);
  check(answeredIn < 5_000, `a write with Postgres away took ${answeredIn} ms`);
  compose('start', 'postgres');
  await until('writes working after Postgres is back', async () => (await api('POST', '/api/admin/projects/default/features', { name: 'deploy-after-db' })).status === 201, 120_000);
  say(`Postgres away: 503 with Retry-After in ${answeredIn} ms; writes work again once it is back`);
} catch (error) {
  // What the ingress saw of the failed requests, before everything is removed.
  try {
    const logs = compose('logs', '--no-color', '--tail', '400', 'ingress').split('\n').filter((line) => / (5\d\d) /.test(line)).slice(-20);
    console.log(logs.join('\n'));
  } catch {
    // no logs to show
  }
  throw error;
} finally {
  try {
    compose('down', '-v', '--remove-orphans');
    const left = run('docker', ['ps', '-a', '-q', '--filter', `label=com.docker.compose.project=${PROJECT}`], { quiet: true }).trim()
      + run('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${PROJECT}`], { quiet: true }).trim();
    say(left === '' ? 'down -v left no container and no volume' : `down -v left: ${left}`);
    if (left !== '') process.exitCode = 1;
  } finally {
    rmSync(clean, { recursive: true, force: true });
  }
}
say('deploy test passed');
