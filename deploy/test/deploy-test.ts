// The deployment run for real (see run.sh): images built from clean copies of what is committed, docker-compose up
// on the stand-in images with the previous version, a rolling upgrade to this one under load, then what a user does
// through the ingress, scaling, node and database faults, a backup restored into new volumes, and `down -v`.
// Prints each step with its time; exits non-zero at the first thing that is not as it should be.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADMIN_TOKEN,
  BASE,
  allInTheLog,
  api,
  check,
  composeIn,
  removeLeftovers,
  run,
  runAsync,
  say,
  servedFlags,
  sleep,
  startLoad,
  until,
  type Compose,
} from './harness.ts';
import { beforeLastMigration, buildImage, buildPrevious, cleanCopy } from './images.ts';
import { backupAndRestore } from './backup-restore.ts';

const PREFIX = 'buntingdeploy';
const PROJECT = `${PREFIX}${process.pid}`;
const folders: string[] = [];
const clean = cleanCopy('HEAD');
folders.push(clean);
const compose = composeIn(join(clean, 'deploy'), PROJECT);
const BUNTING_SERVICES = ['admin-api', 'event-log', 'frontend-api', 'signals', 'insights'];

async function answering(timeoutMs = 180_000) {
  await until(
    'the stack answering through the ingress',
    async () => (await api('GET', '/api/admin/projects')).status === 200,
    timeoutMs,
  );
}

/** The previous version up, a flag served, then each service replaced while SDKs read and an admin writes. */
async function upgradeUnderLoad(previous: string, frontendTokenName: string): Promise<string> {
  process.env.BUNTING_IMAGE = 'bunting:previous';
  const upStart = Date.now();
  compose('up', '-d', '--no-build');
  await answering();
  say(`previous version up and answering in ${((Date.now() - upStart) / 1000).toFixed(0)} s`);
  check(
    (await api('POST', '/api/admin/projects/default/features', { name: 'deploy-flag' })).status === 201,
    'flag not created',
  );
  check(
    (
      await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/strategies', {
        name: 'default',
        constraints: [],
      })
    ).status === 200,
    'strategy not added',
  );
  check(
    (await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/on')).status === 200,
    'flag not switched on',
  );
  const token = (
    await api('POST', '/api/admin/api-tokens', {
      tokenName: frontendTokenName,
      type: 'frontend',
      environment: 'development',
      projects: ['*'],
    })
  ).body.secret as string;
  await until(
    'the flag served through the ingress',
    async () => (await servedFlags(token)).includes('deploy-flag'),
    60_000,
  );

  const load = startLoad({ frontendToken: token, mustServe: 'deploy-flag', writePrefix: 'upgrade-write' });
  const begin = Date.now();
  await runAsync(join(clean, 'deploy', 'rolling-upgrade.sh'), ['bunting:latest', '-p', PROJECT], {
    cwd: compose.dir,
    prefix: '  ',
  });
  const report = await load.stop();
  const images = BUNTING_SERVICES.flatMap((service) => compose.containers(service)).map((container) =>
    run('docker', ['inspect', '-f', '{{.Config.Image}}', container], { quiet: true }).trim(),
  );
  check(
    images.every((image) => image === 'bunting:latest'),
    `after the upgrade the services run ${[...new Set(images)].join(', ')}`,
  );
  say(
    `rolling upgrade from ${previous.slice(0, 7)} in ${((Date.now() - begin) / 1000).toFixed(0)} s under load: ${report.reads} SDK reads (${report.failedReads} failed, p99 ${report.p99} ms, slowest ${report.slowest} ms), ${report.acknowledged.length} writes acknowledged, ${report.failedWrites} failed`,
  );
  check(
    report.failedReads === 0 && report.failedWrites === 0,
    `requests failed during the upgrade: ${JSON.stringify(report.failures)}`,
  );
  await allInTheLog(report.acknowledged);
  say(`every acknowledged write of the upgrade is stored and in the event log`);
  process.env.BUNTING_IMAGE = 'bunting:latest';
  return token;
}

async function scaleUnderLoad(compose: Compose, frontendToken: string) {
  const load = startLoad({ frontendToken, mustServe: 'deploy-flag' });
  say('scaling frontend-api to 1');
  await compose.async('up', '-d', '--no-build', '--no-recreate', '--scale', 'frontend-api=1', 'frontend-api');
  await sleep(3_000);
  say('scaling frontend-api to 3');
  await compose.async('up', '-d', '--no-build', '--no-recreate', '--scale', 'frontend-api=3', 'frontend-api');
  await until(
    '3 frontend-api replicas healthy again',
    async () =>
      run('docker', ['ps', '--filter', `name=${PROJECT}_frontend-api`, '--filter', 'health=healthy', '-q'], {
        quiet: true,
      })
        .split('\n')
        .filter(Boolean).length === 3,
    120_000,
  );
  await sleep(3_000);
  const report = await load.stop();
  say(
    `scaled frontend-api 3 -> 1 -> 3 under ${report.reads} requests: ${report.failedReads} failed, p99 ${report.p99} ms, slowest ${report.slowest} ms`,
  );
  check(
    report.failedReads === 0,
    `${report.failedReads} SDK requests failed while scaling: ${JSON.stringify(report.failures)}`,
  );
}

/**
 * The standalone edge (the same image, BUNTING_TARGET=edge, compose profile "edge") following the stack through its
 * ingress, as an edge in a second region follows the first: it serves the flags, follows a change, and started again
 * while its upstream is away it serves what it kept in its volume.
 */
async function edgeInSecondRegion() {
  const clientToken = (
    await api('POST', '/api/admin/api-tokens', {
      tokenName: 'deploy-edge',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    })
  ).body.secret as string;
  process.env.EDGE_TOKENS = clientToken;
  const edgeUrl = `http://127.0.0.1:${(process.env.EDGE_PORT ??= '4243')}`;
  const ready = async () => (await fetch(`${edgeUrl}/ready`).catch(() => undefined))?.status === 200;
  const served = async () => {
    const answer = await fetch(`${edgeUrl}/api/client/features`, { headers: { authorization: clientToken } }).catch(
      () => undefined,
    );
    if (answer?.status !== 200) return undefined;
    return ((await answer.json()) as { features: { name: string; enabled: boolean }[] }).features.find(
      (flag) => flag.name === 'deploy-flag',
    )?.enabled;
  };
  const begin = Date.now();
  compose('up', '-d', '--no-build', 'edge');
  await until('the edge ready', ready, 60_000);
  check((await served()) === true, 'the edge does not serve deploy-flag on');
  say(`edge (second region) ready ${((Date.now() - begin) / 1000).toFixed(1)} s after up, serving the stack's flags`);
  const changedAt = Date.now();
  check(
    (await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/off')).status === 200,
    'flag not switched off',
  );
  await until('the change at the edge', async () => (await served()) === false, 30_000);
  const tookMs = Date.now() - changedAt;
  check(
    (await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/on')).status === 200,
    'flag not switched on',
  );
  await until('the flag on again at the edge', async () => (await served()) === true, 30_000);
  say(`a change made through the ingress reached the edge in ${tookMs} ms`);
  const [edgeContainer] = compose.containers('edge');
  if (edgeContainer) {
    // What bounds the edge's exit below: a lookup of a name Docker's DNS does not know, from the edge's container.
    const began = Date.now();
    const lookup = `require('node:dns').lookup('no-such-service', (error) => console.log(error ? error.code : 'found'))`;
    const outcome = run('docker', ['exec', edgeContainer, 'node', '-e', lookup], { quiet: true }).trim();
    const lookupMs = Date.now() - began;
    say(`in the edge's container a name nobody knows failed in ${lookupMs} ms (${outcome})`);
    check(
      lookupMs < 5_000,
      `a lookup in the edge's container took ${lookupMs} ms: is the compose file's dns_opt lost?`,
    );
  }
  const away = Date.now();
  compose('stop', 'ingress');
  const ingressStopped = Date.now();
  compose('stop', 'edge');
  const stopped = Date.now();
  const edgeStopMs = stopped - ingressStopped;
  if (edgeContainer) {
    // Docker kills what has not exited in 10 s (exit code 137). A process exits only once libuv's threads are done,
    // and a name lookup under way there ends only when the resolver answers: a stopped container's name, which
    // Docker's DNS passes on to a host resolver that may never answer (this host's), takes 10 s to fail with glibc's
    // defaults and 2 s with the compose file's dns_opt. How much of it the stop meets depends on when the lookup began.
    const exitCode = run('docker', ['inspect', '-f', '{{.State.ExitCode}}', edgeContainer], { quiet: true }).trim();
    if (exitCode !== '0' || edgeStopMs > 5_000) {
      say(`the edge took ${(edgeStopMs / 1000).toFixed(1)} s to stop (exit code ${exitCode}); its last lines:`);
      console.log(compose('logs', '--no-color', '--tail', '12', 'edge'));
    }
    check(exitCode === '0', `the edge, its upstream away, did not exit by itself (exit code ${exitCode})`);
    // Earlier runs without dns_opt met nearly all of a lookup and exited just before the kill, which the code misses.
    check(edgeStopMs < 9_000, 'the edge, its upstream away, took as long to stop as Docker waits');
  }
  compose('start', 'edge');
  await until('the edge ready again with its upstream stopped', ready, 60_000);
  say(
    `the ingress stopped in ${((ingressStopped - away) / 1000).toFixed(1)} s; with its upstream away the edge stopped in ${(edgeStopMs / 1000).toFixed(1)} s and was ready ${((Date.now() - stopped) / 1000).toFixed(1)} s after start`,
  );
  check((await served()) === true, 'restarted with its upstream away, the edge does not serve its kept flags');
  compose('start', 'ingress');
  await answering();
  compose('stop', 'edge');
  say('restarted while its upstream was away, the edge served the flags kept in its volume');
}

try {
  const leftovers = removeLeftovers(PREFIX);
  if (leftovers.length > 0) say(`removed what killed earlier runs left: ${leftovers.join(', ')}`);
  const previous = beforeLastMigration();
  const [previousFolder, built] = await Promise.all([
    previous ? buildPrevious(previous, 'bunting:previous') : undefined,
    buildImage(clean, 'bunting:latest'),
  ]);
  if (previousFolder) folders.push(previousFolder);
  say(`image built in ${built.seconds} s, ${built.megabytes} MB`);
  process.env.INIT_ADMIN_API_TOKENS = ADMIN_TOKEN;

  let frontendToken: string;
  if (previous) {
    frontendToken = await upgradeUnderLoad(previous, 'deploy');
  } else {
    // A clone without the history (shallow): there is no earlier version to start from.
    say("no earlier version in this clone's history: the upgrade is not run");
    process.env.BUNTING_IMAGE = 'bunting:latest';
    compose('up', '-d', '--no-build');
    await answering();
    check(
      (await api('POST', '/api/admin/projects/default/features', { name: 'deploy-flag' })).status === 201,
      'flag not created',
    );
    check(
      (
        await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/strategies', {
          name: 'default',
          constraints: [],
        })
      ).status === 200,
      'strategy not added',
    );
    check(
      (await api('POST', '/api/admin/projects/default/features/deploy-flag/environments/development/on')).status ===
        200,
      'flag not switched on',
    );
    frontendToken = (
      await api('POST', '/api/admin/api-tokens', {
        tokenName: 'deploy',
        type: 'frontend',
        environment: 'development',
        projects: ['*'],
      })
    ).body.secret as string;
  }

  // The console loads and signs in with the default admin.
  const page = await fetch(`${BASE}/login`);
  check(page.status === 200 && (await page.text()).includes('<div id="root">'), 'the console page did not load');
  const login = await api('POST', '/auth/simple/login', { username: 'admin', password: 'unleash4all' }, {});
  check(login.status === 200, `signing in answered ${login.status}`);
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  check((await api('GET', '/api/admin/user', undefined, { cookie })).status === 200, 'the session does not work');
  say('console loads; password sign-in works');

  // A flag switched on is served by every frontend-api replica.
  const replicas = compose.containers('frontend-api');
  check(replicas.length === 3, `expected 3 frontend-api replicas, found ${replicas.length}`);
  const servedBy = async (container: string) => {
    const script = `fetch('http://127.0.0.1:4242/api/frontend', { headers: { authorization: ${JSON.stringify(frontendToken)} } }).then((r) => r.json()).then((b) => console.log(b.toggles.map((t) => t.name).join(',')))`;
    return run('docker', ['exec', container, 'node', '-e', script], { quiet: true }).includes('deploy-flag');
  };
  for (const replica of replicas)
    await until(`replica ${replica.slice(0, 12)} serving the flag`, () => servedBy(replica), 30_000);
  say('the flag is served by each of the 3 frontend-api replicas');

  await scaleUnderLoad(compose, frontendToken);
  await edgeInSecondRegion();

  // Each NATS node stopped in turn during writes: nothing lost, every event in the log.
  for (const node of ['nats-1', 'nats-2', 'nats-3']) {
    compose('stop', node);
    for (let index = 0; index < 5; index += 1) {
      const name = `deploy-${node}-${index}`;
      const created = await until(
        `creating ${name} with ${node} down`,
        async () => {
          const answer = await api('POST', '/api/admin/projects/default/features', { name });
          return answer.status === 201 || answer.status === 409 ? answer : false;
        },
        30_000,
      );
      check(created.status === 201 || created.status === 409, `creating ${name} answered ${created.status}`);
    }
    compose('start', node);
    say(`${node} stopped during 5 writes, started again`);
  }
  const wanted = ['nats-1', 'nats-2', 'nats-3'].flatMap((node) =>
    Array.from({ length: 5 }, (_, index) => `deploy-${node}-${index}`),
  );
  await allInTheLog(wanted);
  say(`all ${wanted.length} writes made while a NATS node was down reached the event log`);

  // Postgres restarted: writes answer 503 quickly while it is away, and work again after.
  compose('stop', 'postgres');
  const begin = Date.now();
  const away = await api('POST', '/api/admin/projects/default/features', { name: 'deploy-while-db-down' }).catch(
    (error: unknown) => ({ status: 0, body: String(error), headers: new Headers() }),
  );
  const answeredIn = Date.now() - begin;
  check(
    away.status === 503 && away.headers.get('retry-after') !== null,
    `a write with Postgres away answered ${away.status}`,
  );
  check(answeredIn < 5_000, `a write with Postgres away took ${answeredIn} ms`);
  compose('start', 'postgres');
  await until(
    'writes working after Postgres is back',
    async () => (await api('POST', '/api/admin/projects/default/features', { name: 'deploy-after-db' })).status === 201,
    120_000,
  );
  say(`Postgres away: 503 with Retry-After in ${answeredIn} ms; writes work again once it is back`);

  await backupAndRestore(compose, frontendToken, answering);
} catch (error) {
  // What the ingress saw of the failed requests, before everything is removed.
  try {
    const logs = compose('logs', '--no-color', 'ingress')
      .split('\n')
      .filter((line) => / (5\d\d|421) |\[(error|warn)\]/.test(line))
      .slice(-30);
    console.log(logs.join('\n'));
  } catch {
    // no logs to show
  }
  throw error;
} finally {
  try {
    compose('down', '-v', '--remove-orphans');
    const left =
      run(
        'docker',
        ['ps', '-a', '-q', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--filter', `name=${PROJECT}`],
        { quiet: true },
      ).trim() +
      run('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${PROJECT}`], {
        quiet: true,
      }).trim();
    say(left === '' ? 'down -v left no container and no volume' : `down -v left: ${left}`);
    if (left !== '') process.exitCode = 1;
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}
say('deploy test passed');
