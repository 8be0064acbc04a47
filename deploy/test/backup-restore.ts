// Backup and restore as deploy/README.md documents it: the one Postgres database holds everything durable, so a
// dump of it is the backup; the volumes are destroyed, the dump restored into a new database, and NATS and Redis
// start empty (their streams and copies are rebuilt). The same flags must be served, and new changes logged.
import { api, check, run, say, servedFlags, until, type Compose } from './harness.ts';

const health = (container: string) =>
  run('docker', ['inspect', '-f', '{{.State.Health.Status}}', container], { quiet: true }).trim();

export async function backupAndRestore(compose: Compose, frontendToken: string, answering: () => Promise<void>) {
  const flagsBefore = ((await api('GET', '/api/admin/projects/default/features')).body.features as { name: string }[])
    .map((flag) => flag.name)
    .sort();
  const servedBefore = await servedFlags(frontendToken);
  const eventsBefore = (await api('GET', '/api/admin/events')).body.totalEvents as number;

  const begin = Date.now();
  const dump = Buffer.from(
    run(
      'sh',
      ['-c', `docker-compose -p ${compose.project} exec -T postgres pg_dump -U bunting -Fc bunting | base64 -w0`],
      { cwd: compose.dir, quiet: true },
    ),
    'base64',
  );
  check(dump.length > 1000, `the dump is ${dump.length} bytes`);
  say(`backed up: ${(dump.length / 1024).toFixed(0)} KiB, ${flagsBefore.length} flags, ${eventsBefore} events`);

  compose('down', '-v');
  compose('up', '-d', 'postgres');
  await until('a new, empty Postgres ready', () => health(compose.containers('postgres')[0]) === 'healthy', 120_000);
  run(
    'docker-compose',
    [
      '-p',
      compose.project,
      'exec',
      '-T',
      'postgres',
      'pg_restore',
      '-U',
      'bunting',
      '-d',
      'bunting',
      '--exit-on-error',
      '--no-owner',
    ],
    { cwd: compose.dir, quiet: true, input: dump },
  );
  compose('up', '-d', '--no-build');
  await answering();
  say(`volumes destroyed, backup restored and the stack up again in ${((Date.now() - begin) / 1000).toFixed(0)} s`);

  const flagsAfter = ((await api('GET', '/api/admin/projects/default/features')).body.features as { name: string }[])
    .map((flag) => flag.name)
    .sort();
  check(
    JSON.stringify(flagsAfter) === JSON.stringify(flagsBefore),
    `flags after the restore differ: ${flagsAfter.length} against ${flagsBefore.length}`,
  );
  const served = await until(
    'the same flags served to the SDK as before the backup',
    async () => {
      const now = await servedFlags(frontendToken);
      return JSON.stringify(now) === JSON.stringify(servedBefore) && now;
    },
    60_000,
  );
  // NATS started empty: a change made now is the new stream's first event, and must still reach the log.
  check(
    (await api('POST', '/api/admin/projects/default/features', { name: 'deploy-after-restore' })).status === 201,
    'no write after the restore',
  );
  await until(
    'the first change after the restore in the event log',
    async () => {
      const found = (await api('GET', '/api/admin/events/deploy-after-restore')).body.events as unknown[];
      return found.length === 1;
    },
    60_000,
  );
  say(
    `after the restore: the same ${flagsAfter.length} flags, the same ${served.length} served to the SDK, and a new change logged`,
  );
}
