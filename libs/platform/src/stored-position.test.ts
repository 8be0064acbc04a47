import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { eventually, isolate, TEST_NATS_URL, type Isolation } from '@bunting/testing';
import { followIntoStore, type RunningConsumer } from './consumer.ts';
import { connectDatabase, sql, type DatabasePool } from './database.ts';
import { createLogger } from './logger.ts';
import { closeMessaging, connectMessaging, ensureStandardStreams, type Messaging } from './messaging.ts';

const log = createLogger('silent', 'stored-position-test');
let isolation: Isolation;
let messaging: Messaging;
let db: DatabasePool;
const running: RunningConsumer[] = [];

beforeAll(async () => {
  isolation = await isolate();
  messaging = await connectMessaging(TEST_NATS_URL, isolation.namespace, log);
  await ensureStandardStreams(messaging);
  db = await connectDatabase(isolation.databaseUrl);
});

afterAll(async () => {
  for (const follower of running) await follower.stop();
  await closeMessaging(messaging);
  await db?.end();
  await isolation?.cleanup();
});

const Note = z.object({ id: z.string() });
const Position = z.object({ last: z.coerce.number() });
const Row = z.object({ note: z.string(), sequence: z.coerce.number() });

/** A store in Postgres as the event log keeps one: rows in arrival order and the position, in one transaction. */
async function createStore(name: string) {
  await db.query(
    sql.unsafe`create table ${sql.identifier([`${name}_rows`])} (id bigserial primary key, note text unique, sequence bigint not null)`,
  );
  await db.query(sql.unsafe`create table ${sql.identifier([`${name}_position`])} (last bigint not null)`);
  await db.query(sql.unsafe`insert into ${sql.identifier([`${name}_position`])} values (0)`);
  const rows = sql.identifier([`${name}_rows`]);
  const position = sql.identifier([`${name}_position`]);
  const runs: number[] = [];
  return {
    runs,
    storedUpTo: () => db.oneFirst(sql.type(Position)`select last from ${position}`),
    store: (run: readonly { sequence: number; value: z.infer<typeof Note> }[], upTo: number) =>
      db.transaction(async (tx) => {
        const last = await tx.oneFirst(sql.type(Position)`select last from ${position} for update`);
        const fresh = run.filter((entry) => entry.sequence > last);
        for (const entry of fresh)
          await tx.query(
            sql.unsafe`insert into ${rows} (note, sequence) values (${entry.value.id}, ${entry.sequence})`,
          );
        if (upTo > last) await tx.query(sql.unsafe`update ${position} set last = ${upTo}`);
        runs.push(run.length);
      }),
    stored: () => db.any(sql.type(Row)`select note, sequence from ${rows} order by id`),
  };
}

function follow(subject: string, store: Pick<Awaited<ReturnType<typeof createStore>>, 'storedUpTo' | 'store'>) {
  const follower = followIntoStore({
    messaging,
    stream: messaging.names.eventsStream,
    filterSubject: messaging.names.eventSubject(subject),
    schema: Note,
    storedUpTo: store.storedUpTo,
    store: store.store,
  });
  running.push(follower);
  return follower;
}

const publish = (subject: string, body: unknown) =>
  messaging.js.publish(messaging.names.eventSubject(subject), typeof body === 'string' ? body : JSON.stringify(body), {
    msgID: randomUUID(),
  });

describe('following a stream into a store that keeps its position', () => {
  it('stores what had arrived as runs, in stream order, once each, with two followers', async () => {
    const store = await createStore('shared');
    for (let index = 0; index < 300; index += 1) await publish('shared', { id: `note-${index}` });
    follow('shared', store);
    follow('shared', store);
    for (let index = 300; index < 400; index += 1) await publish('shared', { id: `note-${index}` });
    await eventually(async () => (await store.stored()).length === 400, { timeoutMs: 15_000 });
    const stored = await store.stored();
    expect(stored.map((row) => row.note)).toEqual(Array.from({ length: 400 }, (_, index) => `note-${index}`));
    expect(stored.map((row) => row.sequence)).toEqual(stored.map((row) => row.sequence).sort((a, b) => a - b));
    // The 300 waiting at the start came in a few runs, not one transaction each.
    expect(store.runs.length).toBeLessThan(200);
    expect(Math.max(...store.runs)).toBeGreaterThan(10);
  }, 20_000);

  it('reads again from the stored position after a failed store, losing and doubling nothing', async () => {
    const store = await createStore('flaky');
    let failures = 0;
    follow('flaky', {
      storedUpTo: store.storedUpTo,
      store: async (run, upTo) => {
        if (failures < 2 && run.some((entry) => entry.value.id === 'note-5')) {
          failures += 1;
          throw new Error('the database went away');
        }
        await store.store(run, upTo);
      },
    });
    for (let index = 0; index < 10; index += 1) await publish('flaky', { id: `note-${index}` });
    await eventually(async () => (await store.stored()).length === 10, { timeoutMs: 15_000 });
    expect(failures).toBe(2);
    expect((await store.stored()).map((row) => row.note)).toEqual(
      Array.from({ length: 10 }, (_, index) => `note-${index}`),
    );
  }, 20_000);

  it('skips a message that does not fit its contract and moves its position past it', async () => {
    const store = await createStore('poison');
    follow('poison', store);
    await publish('poison', 'not json at all');
    await publish('poison', { unexpected: true });
    await publish('poison', { id: 'healthy' });
    await eventually(async () => (await store.stored()).length === 1);
    expect((await store.stored()).map((row) => row.note)).toEqual(['healthy']);
    const last = (await messaging.jsm.streams.getMessage(messaging.names.eventsStream, {
      last_by_subj: messaging.names.eventSubject('poison'),
    }))!.seq;
    expect(await store.storedUpTo()).toBe(last);
  });

  it('carries on when its consumer is deleted on the server behind its back, storing what came meanwhile', async () => {
    const store = await createStore('orphaned');
    follow('orphaned', store);
    await publish('orphaned', { id: 'before' });
    await eventually(async () => (await store.stored()).length === 1);
    const subject = messaging.names.eventSubject('orphaned');
    for await (const consumer of messaging.jsm.consumers.list(messaging.names.eventsStream)) {
      const filters = [consumer.config.filter_subject, ...(consumer.config.filter_subjects ?? [])];
      if (filters.includes(subject)) await messaging.jsm.consumers.delete(messaging.names.eventsStream, consumer.name);
    }
    for (const id of ['during-1', 'during-2', 'during-3']) await publish('orphaned', { id });
    await eventually(async () => (await store.stored()).length === 4, { timeoutMs: 25_000 });
    expect((await store.stored()).map((row) => row.note)).toEqual(['before', 'during-1', 'during-2', 'during-3']);
  }, 30_000);

  it('starts after what is stored', async () => {
    const store = await createStore('resume');
    for (let index = 0; index < 5; index += 1) await publish('resume', { id: `note-${index}` });
    const first = follow('resume', store);
    await eventually(async () => (await store.stored()).length === 5);
    await first.stop();
    const runsBefore = store.runs.length;
    for (let index = 5; index < 8; index += 1) await publish('resume', { id: `note-${index}` });
    follow('resume', store);
    await eventually(async () => (await store.stored()).length === 8);
    // The second follower was handed only the three new messages.
    expect(store.runs.slice(runsBefore).reduce((sum, size) => sum + size, 0)).toBe(3);
  });
});
