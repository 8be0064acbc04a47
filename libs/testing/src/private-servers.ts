import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './nats-server.ts';

const PG_BIN = '/usr/lib/postgresql/15/bin';

function asPostgres(command: string, args: string[]) {
  const result = spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
}

/**
 * A private PostgreSQL (initdb as the postgres user, trust for root on 127.0.0.1) on a spare port, which a fault
 * test may stop, pause and start again without touching the machine's shared server.
 */
export async function startPrivatePostgres() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bunting-pg-'));
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  asPostgres(`${PG_BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'root', '--no-sync', '-E', 'UTF8']);
  const start = async () => {
    asPostgres(`${PG_BIN}/pg_ctl`, [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
    await waitForPort(port, true);
  };
  const stop = async () => {
    spawnSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/pg_ctl`, '-D', data, '-w', '-m', 'immediate', 'stop'], {
      encoding: 'utf8',
    });
    await waitForPort(port, false);
  };
  await start();
  return {
    url: `postgres://root@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private redis-server on a spare port (nothing kept on disk), which a fault test may stop, pause and start again. */
export async function startPrivateRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child && child.exitCode === null) return;
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(port, true);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = undefined;
    await waitForPort(port, false);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    /** SIGSTOP: the port stays open but nothing is answered, as a stalled server does. */
    pause: () => {
      child?.kill('SIGSTOP');
    },
    resume: () => {
      child?.kill('SIGCONT');
    },
    start,
    stop,
    dispose: stop,
  };
}

/**
 * Redis made highly available with Sentinel, on spare ports: a master, one replica and one sentinel (quorum 1) that
 * promotes the replica a second after the master stops answering. `killMaster` ends the master for good.
 */
export async function startPrivateRedisSentinel() {
  const dir = mkdtempSync(join(tmpdir(), 'bunting-sentinel-'));
  const [masterPort, replicaPort, sentinelPort] = [await freePort(), await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const redis = (port: number, extra: string[] = []) => {
    const child = spawn(
      'redis-server',
      // In its own folder: a replica stores the copy it syncs as dump.rdb in its working directory.
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra],
      { stdio: 'ignore' },
    );
    children.push(child);
    return child;
  };
  // The master sends a replica its copy at once, not after waiting 5 s for more replicas (Redis's default).
  const master = redis(masterPort, ['--repl-diskless-sync-delay', '0']);
  await waitForPort(masterPort, true);
  redis(replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]);
  await waitForPort(replicaPort, true);
  // A sentinel rewrites its configuration file, so it gets its own.
  const configFile = join(dir, 'sentinel.conf');
  writeFileSync(
    configFile,
    [
      `port ${sentinelPort}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor mymaster 127.0.0.1 ${masterPort} 1`,
      'sentinel down-after-milliseconds mymaster 1000',
      'sentinel failover-timeout mymaster 5000',
    ].join('\n'),
  );
  children.push(spawn('redis-server', [configFile, '--sentinel'], { stdio: 'ignore' }));
  await waitForPort(sentinelPort, true);
  return {
    sentinels: `127.0.0.1:${sentinelPort}`,
    name: 'mymaster',
    masterPort,
    replicaPort,
    killMaster: async () => {
      if (master.exitCode !== null) return;
      const exited = new Promise((resolve) => master.once('exit', resolve));
      master.kill('SIGKILL');
      await exited;
    },
    dispose: async () => {
      for (const child of children) {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await exited;
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's Prometheus on a spare port, scraping `target` (host:port) at `path` every second (impact metrics renamed to
 * the names Bunting queries), its data in a temporary directory; `stop` ends it (a test of an unavailable source), `start` brings it back.
 */
export async function startPrivatePrometheus(target: string, path: string) {
  if (spawnSync('prometheus', ['--version']).error)
    throw new Error('No prometheus on the PATH: apt-get install -y prometheus (.ci/run installs it)');
  const dir = mkdtempSync(join(tmpdir(), 'bunting-prometheus-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: bunting',
      `    metrics_path: ${path}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      // What the README tells users: impact metrics are exposed as Unleash exposes them (the SDK's name and a
      // metric_type label) and queried under unleash_<type>_<name>, which this relabelling makes.
      '    metric_relabel_configs:',
      '      - source_labels: [metric_type, __name__]',
      "        regex: '(counter|gauge|histogram);(.+)'",
      '        target_label: __name__',
      "        replacement: 'unleash_${1}_${2}'",
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child && child.exitCode === null) return;
    child = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
    await waitForPort(port, true);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    child = undefined;
    await waitForPort(port, false);
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}`,
    start,
    stop,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
