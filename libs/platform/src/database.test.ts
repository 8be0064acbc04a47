import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isolate, type Isolation } from '@bunting/testing';
import { connectDatabase, inOneSnapshot, sql, type DatabasePool, type Queryable } from './database.ts';

let isolation: Isolation;
let db: DatabasePool;
/** Another process writing, on a plain connection: Slonik keeps a transaction's callback from using any pool. */
let writer: pg.Client;
beforeAll(async () => {
  isolation = await isolate();
  db = await connectDatabase(isolation.databaseUrl);
  writer = new pg.Client({ connectionString: isolation.databaseUrl });
  await writer.connect();
  await db.query(sql.unsafe`create table counted (value int not null)`);
});
afterAll(async () => {
  await db?.end();
  await writer?.end();
  await isolation?.cleanup();
});

const total = (on: Queryable) =>
  on.oneFirst(sql.type(z.object({ total: z.number() }))`select coalesce(sum(value), 0)::int8 as total from counted`);

/** Two reads with a write committed on another connection between them: what each read saw. */
async function readTwiceAroundAWrite(read: (work: (tx: Queryable) => Promise<number[]>) => Promise<number[]>) {
  return read(async (tx) => {
    const first = await total(tx);
    await writer.query('insert into counted (value) values (5)');
    return [first, await total(tx)];
  });
}

describe('reads in one snapshot', () => {
  it('do not see a write committed between them, where a plain transaction does', async () => {
    const [before, after] = await readTwiceAroundAWrite((work) => inOneSnapshot(db, work));
    expect(after).toBe(before);
    const [plainBefore, plainAfter] = await readTwiceAroundAWrite((work) => db.transaction(work));
    expect(plainAfter).toBe(plainBefore! + 5);
  });

  it('refuse to write', async () => {
    await expect(
      inOneSnapshot(db, (tx) => tx.query(sql.unsafe`insert into counted (value) values (1)`)),
    ).rejects.toThrow(/read-only/);
  });
});
