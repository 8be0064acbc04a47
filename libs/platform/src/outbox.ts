import pg from 'pg';
import { z } from 'zod';
import { DomainEvent } from '@bunting/contracts';
import { sql, type DatabasePool, type Queryable } from './database.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { toNatsHeaders, type Messaging } from './messaging.ts';
import { SpanKind, contextFromCarrier, contextWithSpan, startSpan, traceCarrier } from './telemetry.ts';

/**
 * The transactional outbox of one service schema. `add` writes messages in the caller's transaction;
 * the relay publishes them to JetStream with the message uuid as the de-duplication id and marks them sent.
 * The schema's outbox table is created by `migrate({ outbox: true })`.
 */
export type Outbox = {
  add: (tx: Queryable, messages: OutboxMessage[]) => Promise<void>;
};

export type OutboxMessage = { uuid: string; subject: string; payload: unknown };

function channelFor(schema: string) {
  return `${schema}_outbox`;
}

export function createOutbox(schema: string): Outbox {
  const table = sql.identifier([schema, 'outbox']);
  const channel = channelFor(schema);
  return {
    async add(tx, messages) {
      if (messages.length === 0) return;
      // The trace context of the request travels with the row, so the relay can continue the trace.
      const headers = JSON.stringify(traceCarrier());
      await tx.query(sql.unsafe`
        insert into ${table} (uuid, subject, payload, headers)
        select * from ${sql.unnest(
          messages.map((message) => [message.uuid, message.subject, JSON.stringify(message.payload), headers]),
          ['uuid', 'text', 'jsonb', 'jsonb'],
        )}`);
      await tx.query(sql.unsafe`select pg_notify(${channel}, '')`);
    },
  };
}

/** JetStream's refusal of a publish whose expected last message is not the stream's last (error 10070). */
function wrongLastMessage(error: unknown): boolean {
  return (
    (error as { code?: unknown } | undefined)?.code === 10070 ||
    /wrong last msg ?id/i.test(String((error as Error)?.message ?? ''))
  );
}

/** A subject's stream, as far as ordering goes: the configuration feed's, or the events' (anything else). */
const streamOf = (subject: string) => (subject.split('.', 2)[1]?.startsWith('feed') ? 'feed' : 'events');

/** The uuid of the last row before `index` bound for the same stream, which that stream must have as its last message. */
function previousInStream(rows: readonly { uuid: string; subject: string }[], index: number): string | undefined {
  const stream = streamOf(rows[index]!.subject);
  for (let earlier = index - 1; earlier >= 0; earlier -= 1)
    if (streamOf(rows[earlier]!.subject) === stream) return rows[earlier]!.uuid;
  return undefined;
}

/** Domain events go out under events.<type>. */
export function eventMessages(messaging: Pick<Messaging, 'names'>, events: DomainEvent[]): OutboxMessage[] {
  return events.map((event) => ({
    uuid: event.uuid,
    subject: messaging.names.eventSubject(event.type),
    payload: event,
  }));
}

const PendingRow = z.object({
  id: z.number(),
  uuid: z.string(),
  subject: z.string(),
  payload: z.unknown(),
  headers: z.record(z.string(), z.string()),
});

export type RelayOptions = {
  schema: string;
  db: DatabasePool;
  databaseUrl: string;
  messaging: Messaging;
  log: Logger;
  sweepIntervalMs?: number;
  /** How long after a failed publish the relay tries again. */
  retryDelayMs?: number;
  batchSize?: number;
  /** Where the backlog (pending rows, age of the oldest) is reported when scraped. */
  metrics?: Metrics;
};

export type Relay = { stop: () => Promise<void>; drain: () => Promise<void> };

/**
 * Publishes pending outbox rows. Woken at once by NOTIFY, after a NATS reconnect, and by a periodic sweep
 * that catches anything missed. One replica relays at a time (an advisory lock), which keeps stream order
 * equal to commit order.
 */
export function startRelay(options: RelayOptions): Relay {
  const { db, messaging, schema } = options;
  const log = options.log.child({ relay: schema });
  const table = sql.identifier([schema, 'outbox']);
  const lockKey = hashKey(`outbox:${schema}`);
  const batchSize = options.batchSize ?? 200;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  const Backlog = z.object({ pending: z.number(), oldestSeconds: z.number() });
  const backlog = async () =>
    db.one(sql.type(Backlog)`
    select count(*)::int as pending, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as "oldestSeconds"
    from ${table} where published_at is null`);
  const labels = { schema };
  const failures = options.metrics?.counter(
    'bunting_outbox_publish_failures_total',
    'Outbox relay passes that could not publish a row (NATS away, no stream leader); the row stays pending',
    ['schema'],
  );
  const removeSources = options.metrics
    ? [
        options.metrics
          .sampledGauge('bunting_outbox_pending_rows', 'Outbox rows not yet published to JetStream', ['schema'])
          .addSource(async () => [{ labels, value: (await backlog()).pending }]),
        options.metrics
          .sampledGauge('bunting_outbox_oldest_pending_age_seconds', 'Age of the oldest unpublished outbox row', [
            'schema',
          ])
          .addSource(async () => [{ labels, value: (await backlog()).oldestSeconds }]),
      ]
    : [];

  /** Publishes the next pending rows; says whether more may be waiting at once (a full batch, or a window cut short). */
  async function drainOnce(): Promise<boolean> {
    return db.transaction(async (tx) => {
      const locked = await tx.oneFirst(sql.type(z.object({ locked: z.boolean() }))`
        select pg_try_advisory_xact_lock(${lockKey}) as locked`);
      if (!locked) return false;
      const rows = await tx.any(sql.type(PendingRow)`
        select id, uuid, subject, payload, headers from ${table}
        where published_at is null order by id limit ${batchSize}`);
      if (rows.length === 0) return false;
      // All at once, each but the first of its stream expecting the one before it there to be the stream's last
      // message: a row that fails (a leader election in a cluster, a timeout) makes every later one of its stream fail
      // too, so none can overtake it and each stream stays in commit order; a burst costs one round trip, not one a row.
      const outcomes = await Promise.allSettled(rows.map((row, index) => publish(row, previousInStream(rows, index))));
      // What was published is marked up to the first failure; the rows after it go again (in order) next time.
      const failedAt = outcomes.findIndex((outcome) => outcome.status === 'rejected');
      const published = (failedAt === -1 ? rows : rows.slice(0, failedAt)).map((row) => row.id);
      if (published.length > 0) {
        await tx.query(
          sql.unsafe`update ${table} set published_at = now() where id = any(${sql.array(published, 'int8')})`,
        );
      }
      if (failedAt === -1) return rows.length === batchSize;
      const reason = (outcomes[failedAt] as PromiseRejectedResult).reason;
      // Another service's message came between two of ours (they share the stream): go on from the row it cut off.
      if (wrongLastMessage(reason)) return true;
      failures?.inc(labels);
      log.warn({ reason: (reason as Error)?.message }, 'publish failed; the row stays pending until NATS answers');
      retrySoon();
      return false;
    });
  }

  async function publish(row: z.infer<typeof PendingRow>, after: string | undefined) {
    const parent = contextFromCarrier(row.headers);
    const span = startSpan(`publish ${row.subject}`, SpanKind.PRODUCER, parent, {
      'messaging.system': 'nats',
      'messaging.destination.name': row.subject,
      'messaging.message.id': row.uuid,
    });
    try {
      const headers = toNatsHeaders(traceCarrier(contextWithSpan(parent, span)));
      // A short wait: a publish to a stream whose leader just died fails fast and is tried again (the message id makes
      // a repeat harmless), so a cluster's failover costs about one leader election.
      await messaging.js.publish(row.subject, JSON.stringify(row.payload), {
        msgID: row.uuid,
        headers,
        timeout: 1500,
        ...(after === undefined ? {} : { expect: { lastMsgID: after } }),
      });
    } finally {
      span.end();
    }
  }

  // After a failed publish (NATS back but its stream not ready yet, say) try again shortly, not only on the sweep.
  let retry: NodeJS.Timeout | undefined;
  function retrySoon() {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void drain();
    }, options.retryDelayMs ?? 500);
  }

  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && (await drainOnce())) {
            /* more rows waiting */
          }
        } while (again && !stopped);
      } catch (error) {
        if (!stopped) log.warn({ err: error }, 'outbox relay pass failed');
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  const listener = listenForNotifications(options.databaseUrl, channelFor(schema), () => void drain(), log);
  const sweep = setInterval(() => void drain(), options.sweepIntervalMs ?? 1000);
  const cleanup = setInterval(() => {
    void db
      .query(sql.unsafe`delete from ${table} where published_at < now() - interval '1 hour'`)
      .catch(() => undefined);
  }, 60_000);
  void (async () => {
    for await (const status of messaging.nc.status()) {
      if (stopped) break;
      if (status.type === 'reconnect') void drain();
    }
  })();
  void drain();

  return {
    drain,
    stop: async () => {
      stopped = true;
      for (const remove of removeSources) remove();
      clearInterval(sweep);
      clearInterval(cleanup);
      if (retry) clearTimeout(retry);
      await listener.stop();
      await running;
    },
  };
}

/** LISTEN on a dedicated connection, reconnecting after errors; slonik pools don't keep listeners. */
function listenForNotifications(databaseUrl: string, channel: string, onNotify: () => void, log: Logger) {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  async function open() {
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('error', (error) => {
      log.warn({ err: error }, 'outbox listener lost its connection');
      scheduleReopen();
    });
    next.on('notification', () => onNotify());
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      client = next;
      onNotify();
    } catch (error) {
      log.warn({ err: error }, 'outbox listener could not connect');
      await next.end().catch(() => undefined);
      scheduleReopen();
    }
  }
  function scheduleReopen() {
    if (stopped || retry) return;
    const broken = client;
    client = undefined;
    void broken?.end().catch(() => undefined);
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, 1000);
  }
  void open();
  return {
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

export function hashKey(text: string): number {
  let hash = 17;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return hash;
}
