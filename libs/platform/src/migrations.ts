import pg from 'pg';
import { runner } from 'node-pg-migrate';
import type { Logger } from './logger.ts';

/**
 * Applies a service's migrations to its own schema. node-pg-migrate holds a Postgres advisory lock
 * while it runs, so replicas starting together apply each migration once; the others wait. A service that writes
 * events (`outbox: true`) gets the outbox table the relay reads, defined here once for every service.
 */
export async function migrate(options: {
  databaseUrl: string;
  schema: string;
  dir: string;
  log: Logger;
  outbox?: boolean;
}) {
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
  if (options.outbox) await ensureOutboxTable(options.databaseUrl, options.schema);
}

/** The outbox of one schema: events written in a change's transaction, published to JetStream by the relay. */
async function ensureOutboxTable(databaseUrl: string, schema: string) {
  const table = `${pg.escapeIdentifier(schema)}.outbox`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      create table if not exists ${table} (
        id bigserial primary key,
        uuid uuid not null unique,
        subject text not null,
        payload jsonb not null,
        headers jsonb not null default '{}',
        created_at timestamptz not null default now(),
        published_at timestamptz
      );
      create index if not exists outbox_pending on ${table} (id) where published_at is null;`);
  } catch (error) {
    // Replicas starting together may race to create it; whoever lost finds it there.
    if (!['23505', '42P07'].includes((error as { code?: string }).code ?? '')) throw error;
  } finally {
    await client.end();
  }
}

/** One lock per schema: different services migrate in parallel, replicas of one service in turn. */
function lockValueFor(schema: string): number {
  let hash = 7;
  for (const char of schema) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return hash;
}
