import { AckPolicy, DeliverPolicy, type Consumer, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { z } from 'zod';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { fromNatsHeaders, type Messaging } from './messaging.ts';
import { watchForStall } from './stall-watch.ts';
import { SpanKind, contextFromCarrier, withSpan } from './telemetry.ts';

type StreamSpec<S extends z.ZodType> = {
  messaging: Messaging;
  stream: string;
  filterSubject: string;
  schema: S;
};

export type ConsumerSpec<S extends z.ZodType> = StreamSpec<S> & {
  /** Durable name shared by every replica of the service, so they split the work. */
  durable: string;
  /** Must be idempotent: a message may arrive again after a crash between the work and the ack. */
  handle: (message: z.infer<S>, raw: JsMsg) => Promise<void>;
  /**
   * Handles the messages already received as one run (in one transaction), when given: a busy stream then costs a
   * commit per run instead of one per message. Must be idempotent per message, like `handle`. A run that fails is
   * handled again message by message through `handle`, so one bad message is retried on its own.
   */
  handleRun?: (run: readonly { value: z.infer<S>; raw: JsMsg }[]) => Promise<void>;
  maxMessages?: number;
  /**
   * How many messages may be out unacknowledged at once, across every replica. 1 hands the stream over in order even
   * when several replicas share the consumer (each message is acknowledged before the next is delivered anywhere).
   */
  maxAckPending?: number;
  /** Where messages handled (by outcome), redeliveries and the consumer's pending count are reported. */
  metrics?: Metrics;
};

export type FollowSpec<S extends z.ZodType> = StreamSpec<S> & {
  /** Where the reader's restarts and quiet time are reported. */
  metrics?: Metrics;
  /** The first stream sequence to read; after an interruption the loop resumes after the last one handled. */
  fromSequence: number;
  /** Called in stream order; a message that does not fit the schema is skipped. */
  handle: (message: z.infer<S>, raw: JsMsg) => void;
};

export type RunningConsumer = { stop: () => Promise<void> };

/** Messages a consumer handled by outcome: one counter for every reader, durable or storing its own position. */
export function consumerMessagesCounter(metrics: Metrics | undefined) {
  return metrics?.counter(
    'bunting_consumer_messages_total',
    'Messages a durable consumer handled, by outcome (acked, retried, dropped)',
    ['consumer', 'outcome'],
  );
}

/**
 * How long one pull waits on the server. The server's heartbeats come every half of it and two missed ones make the
 * client pull again: in a cluster, a pull left on a consumer leader that died is replaced within about this long
 * (nats.js's 30 s default would stall a consumer that long after a node's loss).
 */
const PULL_EXPIRES_MS = 5_000;
/**
 * How long a follower hears nothing before it asks the server whether its consumer is still delivering (and again
 * every half of it). Short: after a cluster lost and regained its quorum, a reader whose consumer did not survive
 * is found and reopened within a few seconds of the first message that waits for it; the question is one small
 * JetStream request per idle reader.
 */
const STALL_QUIET_MS = 3_000;
/** The longest a reader waits before opening again after failures (it doubles from half a second). */
const MAX_REOPEN_DELAY_MS = 2_000;

/** What a stream reader reports: why it reopened its consumer, and how long it has heard nothing. */
function readerMetrics(metrics: Metrics | undefined, reader: string, lastHeard: () => number) {
  const restarts = metrics?.counter(
    'bunting_stream_reader_restarts_total',
    'Times a stream reader opened its consumer again, by reader and why (stalled, failed)',
    ['reader', 'reason'],
  );
  const removeSource = metrics
    ?.sampledGauge(
      'bunting_stream_reader_quiet_seconds',
      'Seconds since a stream reader last received a message (or opened)',
      ['reader'],
    )
    .addSource(() => [{ labels: { reader }, value: (Date.now() - lastHeard()) / 1000 }]);
  return {
    restarted: (reason: 'stalled' | 'failed') => restarts?.inc({ reader, reason }),
    stop: () => removeSource?.(),
  };
}

const NOTHING_YET = Symbol('nothing yet');
/** Settles after the pending microtasks and I/O callbacks: what a stream reader had buffered is handed over before it. */
const nothingYet = () => new Promise<typeof NOTHING_YET>((resolve) => setImmediate(() => resolve(NOTHING_YET)));

/**
 * Reads a consumer's messages in runs: each run waits for its first message, then takes what has already arrived
 * (handed over within microtasks), at most `maxRun`; nothing waits for more. Null when the messages end.
 */
function runReader(messages: ConsumerMessages, maxRun: number): () => Promise<JsMsg[] | null> {
  const iterator = messages[Symbol.asyncIterator]();
  // A read already asked for when the previous run closed: its message (when one comes) starts the next run.
  let waiting: Promise<IteratorResult<JsMsg>> | undefined;
  return async () => {
    const first = await (waiting ?? iterator.next());
    waiting = undefined;
    if (first.done) return null;
    const run: JsMsg[] = [first.value];
    // getPending() may count a message too many, never too few: at 0 the run is complete without a look.
    while (run.length < maxRun && messages.getPending() > 0) {
      const next = iterator.next();
      const ready = await Promise.race([next, nothingYet()]);
      if (ready === NOTHING_YET) {
        waiting = next;
        break;
      }
      if (ready.done) break;
      run.push(ready.value);
    }
    return run;
  };
}

/**
 * The one loop every stream reader runs: open the consumer, read, hand the messages over (one at a time, or in runs
 * of what has already arrived when `maxRun` is above 1), and after the connection or the consumer goes away open it
 * again a second later, until stopped.
 */
/** A reader opened: its consumer, its messages, and the stream sequence it starts after. */
type Opened = { consumer: Consumer; messages: ConsumerMessages; startsAfter: number };

function consumeLoop(
  log: Logger,
  open: () => Promise<Opened>,
  handle: (run: readonly JsMsg[]) => Promise<void> | void,
  maxRun = 1,
  watch?: { metrics: Metrics | undefined; reader: string },
): RunningConsumer {
  let stopped = false;
  let current: ConsumerMessages | undefined;
  let wake: (() => void) | undefined;
  let inFlight: Promise<void> | void;
  let lastHeard = Date.now();
  const reported = watch ? readerMetrics(watch.metrics, watch.reader, () => lastHeard) : undefined;

  const loop = (async () => {
    while (!stopped) {
      let stopWatch: (() => void) | undefined;
      try {
        const opened = await open();
        current = opened.messages;
        lastHeard = Date.now();
        let handledUpTo = opened.startsAfter;
        if (watch) {
          stopWatch = watchForStall({
            ...opened,
            log,
            quietMs: STALL_QUIET_MS,
            lastHeard: () => lastHeard,
            handledUpTo: () => handledUpTo,
            onRestart: () => reported?.restarted('stalled'),
          });
        }
        const nextRun = runReader(current, maxRun);
        for (let run = await nextRun(); run !== null; run = await nextRun()) {
          lastHeard = Date.now();
          handledUpTo = run.at(-1)!.seq;
          if (stopped) {
            for (const message of run) message.nak();
            break;
          }
          inFlight = handle(run);
          await inFlight;
          inFlight = undefined;
        }
      } catch (error) {
        if (stopped) break;
        reported?.restarted('failed');
        log.warn({ err: error }, 'stream reader interrupted; retrying');
      } finally {
        stopWatch?.();
      }
      if (!stopped)
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 1000);
        });
    }
  })();

  return {
    // Stop pulling and wait for the work in hand. The reader's close is not awaited: it settles only once its
    // iterator is read again, which a loop that stopped after a run does not do (shutdown then hung).
    stop: async () => {
      stopped = true;
      reported?.stop();
      wake?.();
      void current?.close().catch(() => undefined);
      await inFlight;
      void loop;
    },
  };
}

/**
 * A durable consumer: handle inside a span that continues the producer's trace, ack after the work is committed,
 * nak with a growing delay on failure, and terminate a message that does not match its contract (a poison message
 * is dropped and logged, never retried forever).
 */
export function runDurableConsumer<S extends z.ZodType>(spec: ConsumerSpec<S>): RunningConsumer {
  const { messaging } = spec;
  const log = messaging.log.child({ consumer: spec.durable });
  const handled = consumerMessagesCounter(spec.metrics);
  const redelivered = spec.metrics?.counter(
    'bunting_consumer_redeliveries_total',
    'Messages a durable consumer received again',
    ['consumer'],
  );
  const count = (outcome: string) => handled?.inc({ consumer: spec.durable, outcome });
  // Read from JetStream when scraped: what the stream holds that this consumer has not yet acknowledged.
  const removeSource = spec.metrics
    ?.sampledGauge('bunting_consumer_pending_messages', 'Messages waiting for a durable consumer, delivered or not', [
      'consumer',
    ])
    .addSource(async () => {
      const info = await messaging.jsm.consumers.info(spec.stream, spec.durable);
      return [{ labels: { consumer: spec.durable }, value: info.num_pending + info.num_ack_pending }];
    });

  async function open() {
    await messaging.jsm.consumers.add(spec.stream, {
      durable_name: spec.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: spec.filterSubject,
      ack_wait: nanos(30_000),
      max_ack_pending: spec.maxAckPending ?? 1000,
    });
    const consumer = await messaging.js.consumers.get(spec.stream, spec.durable);
    return {
      consumer,
      messages: await consumer.consume({ max_messages: spec.maxMessages ?? 100, expires: PULL_EXPIRES_MS }),
      startsAfter: 0,
    };
  }

  async function handleOne(message: JsMsg) {
    const parsed = spec.schema.safeParse(safeJson(message));
    if (!parsed.success) {
      log.error(
        { subject: message.subject, fields: parsed.error.issues.slice(0, 5).map((issue) => issue.path.join('.')) },
        'dropping a message that does not match its contract',
      );
      // No reason text: servers before 2.10.4 ignore a TERM that carries one, and the message would come back forever.
      message.term();
      count('dropped');
      return;
    }
    if (message.info.redelivered) redelivered?.inc({ consumer: spec.durable });
    const parent = contextFromCarrier(fromNatsHeaders(message.headers));
    try {
      await withSpan(
        `${spec.durable} process`,
        {
          kind: SpanKind.CONSUMER,
          parent,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject },
        },
        () => spec.handle(parsed.data, message),
      );
      message.ack();
      count('acked');
    } catch (error) {
      log.error({ err: error, subject: message.subject }, 'handler failed; will retry');
      message.nak(Math.min(30_000, 500 * 2 ** Math.min(message.info.deliveryCount, 6)));
      count('retried');
    }
  }

  const handleRun = spec.handleRun;
  async function handleMany(run: readonly JsMsg[]) {
    if (handleRun === undefined || run.length === 1) {
      for (const message of run) await handleOne(message);
      return;
    }
    const values: { value: z.infer<S>; raw: JsMsg }[] = [];
    for (const message of run) {
      const parsed = spec.schema.safeParse(safeJson(message));
      if (parsed.success) values.push({ value: parsed.data, raw: message });
      else await handleOne(message); // dropped, as handleOne does with a message that does not fit
    }
    if (values.length === 0) return;
    try {
      await withSpan(
        `${spec.durable} process run`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextFromCarrier(fromNatsHeaders(values[0]!.raw.headers)),
          attributes: { 'messaging.system': 'nats', 'messaging.batch.message_count': values.length },
        },
        () => handleRun(values),
      );
    } catch (error) {
      log.warn({ err: error, messages: values.length }, 'a run failed; handling its messages one by one');
      for (const { raw } of values) await handleOne(raw);
      return;
    }
    for (const { raw } of values) {
      if (raw.info.redelivered) redelivered?.inc({ consumer: spec.durable });
      raw.ack();
      count('acked');
    }
  }

  const running = consumeLoop(log, open, handleMany, handleRun === undefined ? 1 : (spec.maxMessages ?? 100));
  return {
    stop: async () => {
      removeSource?.();
      await running.stop();
    },
  };
}

/**
 * Follows a stream from a sequence with an ordered, ephemeral consumer: every replica sees every message, in order.
 * Nothing is acknowledged; after an interruption reading resumes after the last message handled.
 */
export function followStream<S extends z.ZodType>(spec: FollowSpec<S>): RunningConsumer {
  const { messaging } = spec;
  let next = spec.fromSequence;
  const open = async () => {
    const consumer = await messaging.js.consumers.get(spec.stream, {
      filter_subjects: spec.filterSubject,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: next,
    });
    return { consumer, messages: await consumer.consume({ expires: PULL_EXPIRES_MS }), startsAfter: next - 1 };
  };
  const handleOne = (message: JsMsg) => {
    next = message.seq + 1;
    const parsed = spec.schema.safeParse(safeJson(message));
    if (parsed.success) spec.handle(parsed.data, message);
  };
  return consumeLoop(
    messaging.log.child({ follower: spec.stream }),
    open,
    (run) => {
      for (const message of run) handleOne(message);
    },
    1,
    { metrics: spec.metrics, reader: `follow:${spec.stream}` },
  );
}

export type StoredPositionSpec<S extends z.ZodType> = StreamSpec<S> & {
  /**
   * The last stream sequence the reader's own store holds; reading starts after it, and again after any failure.
   * `stream.created` names the stream as it is now: a store that kept its position in another stream of that name
   * (made anew since, numbering from 1 again) answers 0.
   */
  storedUpTo: (stream: { created: string }) => Promise<number>;
  /**
   * Stores a run of consecutive messages (in stream order; those that do not fit the schema left out) together with
   * `upTo`, the run's last sequence, in one transaction, so that what is stored and where to resume never disagree.
   * A failure stores nothing: reading starts again from storedUpTo after a delay.
   */
  store: (messages: readonly { sequence: number; value: z.infer<S> }[], upTo: number) => Promise<void>;
  /** At most this many messages a run (default 500). */
  maxRun?: number;
  /** Where the reader's restarts and quiet time are reported. */
  metrics?: Metrics;
  /** The reader's name in those metrics (default `store:<stream>`): several readers of one stream need their own. */
  reader?: string;
  /** The longest wait before reading again after failures (default 2 s); it doubles from 0.5 s up to this. */
  maxRetryDelayMs?: number;
};

/**
 * Reads a stream in order into a store that keeps its own position (the event log): every replica follows the whole
 * stream with an ordered consumer and hands over the messages already received as one run, so a burst of thousands
 * of events costs a few transactions instead of a round trip each. Nothing is acknowledged: the store's position is
 * the bookmark, and the store skips what another replica stored first.
 */
export function followIntoStore<S extends z.ZodType>(spec: StoredPositionSpec<S>): RunningConsumer {
  const { messaging } = spec;
  const log = messaging.log.child({ follower: spec.stream, store: true });
  const maxRun = spec.maxRun ?? 500;
  let stopped = false;
  let current: ConsumerMessages | undefined;
  let wake: (() => void) | undefined;
  let inFlight: Promise<void> | undefined;
  let failures = 0;
  let lastHeard = Date.now();
  const reported = readerMetrics(spec.metrics, spec.reader ?? `store:${spec.stream}`, () => lastHeard);

  const loop = (async () => {
    while (!stopped) {
      let stopWatch: (() => void) | undefined;
      try {
        const { created } = await messaging.jsm.streams.info(spec.stream);
        const from = (await spec.storedUpTo({ created })) + 1;
        const consumer = await messaging.js.consumers.get(spec.stream, {
          filter_subjects: spec.filterSubject,
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: from,
        });
        const messages = await consumer.consume({ max_messages: maxRun, expires: PULL_EXPIRES_MS });
        current = messages;
        lastHeard = Date.now();
        let handledUpTo = from - 1;
        stopWatch = watchForStall({
          consumer,
          messages,
          log,
          quietMs: STALL_QUIET_MS,
          lastHeard: () => lastHeard,
          handledUpTo: () => handledUpTo,
          streamChanged: async () => (await messaging.jsm.streams.info(spec.stream)).created !== created,
          onRestart: () => reported.restarted('stalled'),
        });
        const nextRun = runReader(messages, maxRun);
        while (!stopped) {
          const run = await nextRun();
          if (run === null || stopped) break;
          lastHeard = Date.now();
          const values: { sequence: number; value: z.infer<S> }[] = [];
          for (const message of run) {
            const parsed = spec.schema.safeParse(safeJson(message));
            if (parsed.success) values.push({ sequence: message.seq, value: parsed.data });
            else
              log.error(
                { subject: message.subject, sequence: message.seq },
                'skipping a message that does not match its contract',
              );
          }
          inFlight = spec.store(values, run.at(-1)!.seq);
          await inFlight;
          inFlight = undefined;
          handledUpTo = run.at(-1)!.seq;
          failures = 0;
        }
      } catch (error) {
        inFlight = undefined;
        if (stopped) break;
        failures += 1;
        reported.restarted('failed');
        log.warn({ err: error }, 'stream reader interrupted; reading again from what is stored');
      } finally {
        stopWatch?.();
        // Not awaited: the reader's close settles only once its iterator is read again, which a loop that is
        // leaving does not do (the subscription ends at once either way).
        void current?.close().catch(() => undefined);
        current = undefined;
      }
      const delay = Math.min(spec.maxRetryDelayMs ?? MAX_REOPEN_DELAY_MS, 500 * 2 ** Math.min(failures, 10));
      if (!stopped)
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, delay);
        });
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      reported.stop();
      wake?.();
      void current?.close().catch(() => undefined);
      await inFlight?.catch(() => undefined);
      void loop;
    },
  };
}

function safeJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
