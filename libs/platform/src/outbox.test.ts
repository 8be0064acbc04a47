import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventually, isolate, startPrivateNats, type Isolation } from '@bunting/testing';
import { connectDatabase, sql, type DatabasePool } from './database.ts';
import { createLogger } from './logger.ts';
import { closeMessaging, connectMessaging, ensureStandardStreams, type Messaging } from './messaging.ts';
import { migrate } from './migrations.ts';
import { createOutbox, startRelay, type Relay } from './outbox.ts';

const SCHEMA = 'relay_test';
const OTHER_SCHEMA = 'relay_other';
const log = createLogger('silent', 'outbox-test');
let isolation: Isolation;
let nats: Awaited<ReturnType<typeof startPrivateNats>>;
let db: DatabasePool;
let messaging: Messaging;
let migrations: string;
const received: string[] = [];
const receivedOther: string[] = [];
const relays: Relay[] = [];

beforeAll(async () => {
  isolation = await isolate();
  nats = await startPrivateNats();
  migrations = mkdtempSync(join(tmpdir(), 'bunting-migrations-'));
  await migrate({ databaseUrl: isolation.databaseUrl, schema: SCHEMA, dir: migrations, log, outbox: true });
  await migrate({ databaseUrl: isolation.databaseUrl, schema: OTHER_SCHEMA, dir: migrations, log, outbox: true });
  db = await connectDatabase(isolation.databaseUrl);
  messaging = await connectMessaging(nats.url, isolation.namespace, log);
  await ensureStandardStreams(messaging);
  messaging.nc.subscribe(messaging.names.eventSubject('relay-test'), {
    callback: (_error, message) => {
      received.push(message.json<{ id: string }>().id);
    },
  });
  messaging.nc.subscribe(messaging.names.eventSubject('relay-other'), {
    callback: (_error, message) => {
      receivedOther.push(message.json<{ id: string }>().id);
    },
  });
});

afterAll(async () => {
  for (const relay of relays) await relay.stop();
  await closeMessaging(messaging);
  await db?.end();
  await nats?.dispose();
  await isolation?.cleanup();
  rmSync(migrations, { recursive: true, force: true });
});

function relay(sweepIntervalMs: number, schema = SCHEMA) {
  const started = startRelay({ schema, db, databaseUrl: isolation.databaseUrl, messaging, log, sweepIntervalMs });
  relays.push(started);
  return started;
}

async function stopRelays() {
  for (const started of relays.splice(0)) await started.stop();
}

const message = (id: string) => ({
  uuid: randomUUID(),
  subject: messaging.names.eventSubject('relay-test'),
  payload: { id },
});
/** What the stream holds under a subject, in stream order (a core subscriber also hears publishes JetStream refused). */
async function streamed(subject: string): Promise<string[]> {
  const consumer = await messaging.js.consumers.get(messaging.names.eventsStream, {
    filter_subjects: messaging.names.eventSubject(subject),
  });
  const count = (await consumer.info()).num_pending;
  const ids: string[] = [];
  if (count === 0) return ids;
  for await (const entry of await consumer.fetch({ max_messages: count, expires: 2000 })) {
    ids.push(entry.json<{ id: string }>().id);
    if (ids.length === count) break;
  }
  return ids;
}
const pending = () =>
  db.oneFirst(
    sql.type(
      z.object({ count: z.number() }),
    )`select count(*)::int as count from relay_test.outbox where published_at is null`,
  );

describe('the outbox relay', () => {
  it('is woken by NOTIFY when a change commits, without waiting for its sweep', async () => {
    const started = relay(600_000);
    await started.drain();
    await db.transaction((tx) => createOutbox(SCHEMA).add(tx, [message('woken')]));
    await eventually(async () => received.includes('woken'));
    // The row is marked once NATS has acknowledged it, which may be a moment after a subscriber heard it.
    await eventually(async () => (await pending()) === 0);
    await stopRelays();
  });

  it('publishes rows nobody announced on its periodic sweep', async () => {
    relay(200);
    // Written without pg_notify, as if the notice had been lost.
    await db.query(
      sql.unsafe`insert into relay_test.outbox (uuid, subject, payload) values (${randomUUID()}, ${messaging.names.eventSubject('relay-test')}, ${sql.jsonb({ id: 'swept' })})`,
    );
    await eventually(async () => received.includes('swept'));
    await eventually(async () => (await pending()) === 0);
    await stopRelays();
  });

  it("publishes bursts in commit order, each once, while another service's relay publishes to the same stream", async () => {
    relay(600_000);
    relay(600_000, OTHER_SCHEMA);
    const burst = (prefix: string, subject: string) =>
      Array.from({ length: 400 }, (_, index) => ({
        uuid: randomUUID(),
        subject: messaging.names.eventSubject(subject),
        payload: { id: `${prefix}-${index}` },
      }));
    await Promise.all([
      db.transaction((tx) => createOutbox(SCHEMA).add(tx, burst('burst', 'relay-test'))),
      db.transaction((tx) => createOutbox(OTHER_SCHEMA).add(tx, burst('other', 'relay-other'))),
    ]);
    // Both relays are woken by NOTIFY only (no sweep within the test): a window cut short by the other service's
    // messages goes on at once.
    await eventually(
      async () => received.filter((id) => id.startsWith('burst-')).length === 400 && receivedOther.length === 400,
      { timeoutMs: 15_000 },
    );
    await eventually(async () => (await pending()) === 0);
    expect((await streamed('relay-test')).filter((id) => id.startsWith('burst-'))).toEqual(
      Array.from({ length: 400 }, (_, index) => `burst-${index}`),
    );
    expect(await streamed('relay-other')).toEqual(Array.from({ length: 400 }, (_, index) => `other-${index}`));
    await stopRelays();
  }, 20_000);

  it('keeps the events and the configuration feed each in commit order when one change writes to both', async () => {
    const started = relay(600_000);
    const feed = messaging.names.feed({ environment: 'relay-env' }).delta;
    const rows = Array.from({ length: 40 }, (_, index) => ({
      uuid: randomUUID(),
      subject: index % 2 === 0 ? messaging.names.eventSubject('relay-test') : feed,
      payload: { id: `both-${index}` },
    }));
    await db.transaction((tx) => createOutbox(SCHEMA).add(tx, rows));
    await started.drain();
    expect(await pending()).toBe(0);
    expect((await streamed('relay-test')).filter((id) => id.startsWith('both-'))).toEqual(
      rows.filter((_, index) => index % 2 === 0).map((row) => row.payload.id),
    );
    const consumer = await messaging.js.consumers.get(messaging.names.feedStream, { filter_subjects: feed });
    const ids: string[] = [];
    for await (const entry of await consumer.fetch({ max_messages: 20, expires: 2000 })) {
      ids.push(entry.json<{ id: string }>().id);
      if (ids.length === 20) break;
    }
    expect(ids).toEqual(rows.filter((_, index) => index % 2 === 1).map((row) => row.payload.id));
    await stopRelays();
  });

  it('lets no row overtake one that failed to publish', async () => {
    const started = relay(600_000);
    await started.drain();
    const rows = ['hold-0', 'hold-1', 'hold-2', 'hold-3'].map(message);
    // A subject outside the stream: JetStream cannot take the second row.
    rows[1]!.subject = 'nowhere.relay-test';
    await db.transaction((tx) => createOutbox(SCHEMA).add(tx, rows));
    await started.drain();
    expect(await pending()).toBe(3);
    expect((await streamed('relay-test')).filter((id) => id.startsWith('hold-'))).toEqual(['hold-0']);
    await db.query(
      sql.unsafe`update relay_test.outbox set subject = ${messaging.names.eventSubject('relay-test')} where payload->>'id' = 'hold-1'`,
    );
    await started.drain();
    expect(await pending()).toBe(0);
    expect((await streamed('relay-test')).filter((id) => id.startsWith('hold-'))).toEqual([
      'hold-0',
      'hold-1',
      'hold-2',
      'hold-3',
    ]);
    await stopRelays();
  });

  it('keeps rows pending while NATS is down and publishes them when it reconnects, each once', async () => {
    relay(600_000);
    await nats.stop();
    await db.transaction((tx) =>
      createOutbox(SCHEMA).add(tx, [message('during-outage-1'), message('during-outage-2')]),
    );
    // The relay tried at once (NOTIFY) and failed: the rows wait.
    expect(await pending()).toBe(2);
    await nats.start();
    await eventually(async () => received.includes('during-outage-1') && received.includes('during-outage-2'), {
      timeoutMs: 20_000,
    });
    await eventually(async () => (await pending()) === 0);
    expect(received.filter((id) => id.startsWith('during-outage'))).toEqual(['during-outage-1', 'during-outage-2']);
    await stopRelays();
  }, 30_000);
});
