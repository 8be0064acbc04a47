import pg from 'pg';
import {
  createPool,
  sql,
  type DatabasePool,
  type DatabaseTransactionConnection,
  type CommonQueryMethods,
} from 'slonik';

export { sql };
export type { DatabasePool, DatabaseTransactionConnection };
/** Anything a store can run a query on: the pool or an open transaction. */
export type Queryable = CommonQueryMethods;

/** Timestamps become ISO strings and bigints numbers, the shapes the API sends. */
const typeParsers = [
  { name: 'int8', parse: (value: string) => Number(value) },
  { name: 'numeric', parse: (value: string) => Number(value) },
  { name: 'timestamptz', parse: (value: string) => new Date(value).toISOString() },
  { name: 'timestamp', parse: (value: string) => new Date(`${value}Z`).toISOString() },
];

export type DatabaseOptions = { maximumPoolSize?: number; statementTimeout?: number };

export async function connectDatabase(url: string, options: DatabaseOptions = {}): Promise<DatabasePool> {
  await ensureDatabaseExists(url);
  return createPool(url, {
    typeParsers,
    maximumPoolSize: options.maximumPoolSize ?? 10,
    statementTimeout: options.statementTimeout ?? 30_000,
    // A database that is away must cost a request seconds, not tens of them: a host that does not answer (a stopped
    // container's name, looked up through a DNS that cannot answer it) is given 2 s and one more try, then the
    // request answers 503 (Slonik's defaults, 5 s and three more tries, held a write for over 15 s).
    connectionTimeout: 2_000,
    connectionRetryLimit: 1,
    captureStackTrace: false,
    // Slonik's default runs DISCARD ALL before a connection goes back to the pool: one more round trip per query. No
    // code here leaves session state behind (locks and settings are per transaction), so there is nothing to discard.
    resetConnection: async () => {},
  });
}

/**
 * Reads that are only right together (counts and what they are divided by) in one snapshot of the database: a run of
 * metrics recorded between two of them would be in one and not the other, and a comparison made of both would show an
 * effect that is not there.
 */
export function inOneSnapshot<T>(db: DatabasePool, read: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(sql.unsafe`set transaction isolation level repeatable read, read only`);
    return read(tx);
  });
}

/** A fresh machine has no "bunting" database yet; create it from the maintenance database. */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) return;
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  } finally {
    await probe.end().catch(() => undefined);
  }
  for (const maintenance of ['postgres', 'template1']) {
    const adminUrl = new URL(url);
    adminUrl.pathname = `/${maintenance}`;
    const client = new pg.Client({ connectionString: adminUrl.toString() });
    try {
      await client.connect();
      await client.query(`create database ${pg.escapeIdentifier(name)}`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '42P04') return;
      if (code === '3D000') continue;
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
