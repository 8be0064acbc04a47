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
const log = createLogger('silent', 'outbox-test');
let isolation: Isolation;
let nats: Awaited<ReturnType<typeof startPrivateNats>>;
let db: DatabasePool;
let messaging: Messaging;
let migrations: string;
const received: string[] = [];
const relays: Relay[] = [];

beforeAll(async () => {
  isolation = await isolate();
  nats = await startPrivateNats();
  migrations = mkdtempSync(join(tmpdir(), 'bunting-migrations-'));
  await migrate({ databaseUrl: isolation.databaseUrl, schema: SCHEMA, dir: migrations, log, outbox: true });
  db = await connectDatabase(isolation.databaseUrl);
  messaging = await connectMessaging(nats.url, isolation.namespace, log);
  await ensureStandardStreams(messaging);
  messaging.nc.subscribe(messaging.names.eventSubject('relay-test'), { callback: (_error, message) => { received.push(message.json<{ id: string }>().id); } });
});

afterAll(async () => {
  for (const relay of relays) await relay.stop();
  await closeMessaging(messaging);
  await db?.end();
  await nats?.dispose();
  await isolation?.cleanup();
  rmSync(migrations, { recursive: true, force: true });
});

function relay(sweepIntervalMs: number) {
  const started = startRelay({ schema: SCHEMA, db, databaseUrl: isolation.databaseUrl, messaging, log, sweepIntervalMs });
  relays.push(started);
  return started;
}

async function stopRelays() {
  for (const started of relays.splice(0)) await started.stop();
}

const message = (id: string) => ({ uuid: randomUUID(), subject: messaging.names.eventSubject('relay-test'), payload: { id } });
const pending = () => db.oneFirst(sql.type(z.object({ count: z.number() }))`select count(*)::int as count from relay_test.outbox where published_at is null`);

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
    await db.query(sql.unsafe`insert into relay_test.outbox (uuid, subject, payload) values (${randomUUID()}, ${messaging.names.eventSubject('relay-test')}, ${sql.jsonb({ id: 'swept' })})`);
    await eventually(async () => received.includes('swept'));
    await eventually(async () => (await pending()) === 0);
    await stopRelays();
  });

  it('keeps rows pending while NATS is down and publishes them when it reconnects, each once', async () => {
    relay(600_000);
    await nats.stop();
    await db.transaction((tx) => createOutbox(SCHEMA).add(tx, [message('during-outage-1'), message('during-outage-2')]));
    // The relay tried at once (NOTIFY) and failed: the rows wait.
    expect(await pending()).toBe(2);
    await nats.start();
    await eventually(async () => received.includes('during-outage-1') && received.includes('during-outage-2'), { timeoutMs: 20_000 });
    await eventually(async () => (await pending()) === 0);
    expect(received.filter((id) => id.startsWith('during-outage'))).toEqual(['during-outage-1', 'during-outage-2']);
    await stopRelays();
  }, 30_000);
});
