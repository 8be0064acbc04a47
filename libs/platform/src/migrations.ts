import { runner } from 'node-pg-migrate';
import type { Logger } from './logger.ts';

/**
 * Applies a service's migrations to its own schema. node-pg-migrate holds a Postgres advisory lock
 * while it runs, so replicas starting together apply each migration once; the others wait.
 */
export async function migrate(options: { databaseUrl: string; schema: string; dir: string; log: Logger }) {
  await runner({
    databaseUrl: options.databaseUrl,
    dir: options.dir,
    schema: options.schema,
    createSchema: true,
    migrationsTable: 'migrations',
    direction: 'up',
    singleTransaction: true,
    advisoryLockMode: 'wait',
    lockValue: lockValueFor(options.schema),
    checkOrder: true,
    log: (message: string) => options.log.debug({ migration: message }, 'migration'),
  });
}

/** One lock per schema: different services migrate in parallel, replicas of one service in turn. */
function lockValueFor(schema: string): number {
  let hash = 7;
  for (const char of schema) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return hash;
}
