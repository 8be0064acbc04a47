import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { z } from 'zod';
import { fromNatsHeaders, type Messaging } from './messaging.ts';
import { SpanKind, contextFromCarrier, withSpan } from './telemetry.ts';

export type ConsumerSpec<S extends z.ZodType> = {
  messaging: Messaging;
  stream: string;
  /** Durable name shared by every replica of the service, so they split the work. */
  durable: string;
  filterSubject: string;
  schema: S;
  /** Must be idempotent: a message may arrive again after a crash between the work and the ack. */
  handle: (message: z.infer<S>, raw: JsMsg) => Promise<void>;
  maxMessages?: number;
};

export type RunningConsumer = { stop: () => Promise<void> };

/**
 * The loop every durable consumer needs: create or bind the consumer, consume, handle inside a span that
 * continues the producer's trace, ack after the work is committed, nak with a delay on failure, and
 * start again after the connection or the consumer goes away.
 */
export function runDurableConsumer<S extends z.ZodType>(spec: ConsumerSpec<S>): RunningConsumer {
  const { messaging } = spec;
  const log = messaging.log.child({ consumer: spec.durable });
  let stopped = false;
  let current: ConsumerMessages | undefined;
  let wake: (() => void) | undefined;
  let inFlight: Promise<void> | undefined;

  const loop = (async () => {
    while (!stopped) {
      try {
        await messaging.jsm.consumers.add(spec.stream, {
          durable_name: spec.durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: spec.filterSubject,
          ack_wait: nanos(30_000),
          max_ack_pending: 1000,
        });
        const consumer = await messaging.js.consumers.get(spec.stream, spec.durable);
        current = await consumer.consume({ max_messages: spec.maxMessages ?? 100 });
        for await (const message of current) {
          if (stopped) {
            message.nak();
            break;
          }
          inFlight = handleOne(message);
          await inFlight;
          inFlight = undefined;
        }
      } catch (error) {
        if (stopped) break;
        log.warn({ err: error }, 'consumer interrupted; retrying');
      }
      if (!stopped) await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, 1000); });
    }
  })();

  async function handleOne(message: JsMsg) {
    const parsed = spec.schema.safeParse(safeJson(message));
    if (!parsed.success) {
      log.error({ subject: message.subject, fields: parsed.error.issues.slice(0, 5).map((issue) => issue.path.join('.')) }, 'dropping a message that does not match its contract');
      message.term('invalid message');
      return;
    }
    const parent = contextFromCarrier(fromNatsHeaders(message.headers));
    try {
      await withSpan(`${spec.durable} process`, {
        kind: SpanKind.CONSUMER,
        parent,
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject },
      }, () => spec.handle(parsed.data, message));
      message.ack();
    } catch (error) {
      log.error({ err: error, subject: message.subject }, 'handler failed; will retry');
      message.nak(Math.min(30_000, 500 * 2 ** Math.min(message.info.deliveryCount, 6)));
    }
  }

  return {
    // Stop pulling and wait for the message in hand; the iterator itself may only notice at its next pull expiry.
    stop: async () => {
      stopped = true;
      wake?.();
      await current?.close().catch(() => undefined);
      await inFlight;
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
