import type { DatabasePool, Logger, Messaging } from '@bunting/platform';
import { metricStore } from './metric-store.ts';

type Consumer = { messaging: Messaging; stream: string; durable: string };

/**
 * Forgets the stream sequences of metrics messages that can never come again: JetStream's ack floor is the
 * sequence up to which every message of the consumer has been acknowledged, so none at or below it is redelivered;
 * nor is one older than the metrics stream's retention. What stays is about the messages in flight, however many
 * posts an hour the fleet sends.
 */
export async function pruneProcessedMetrics(db: DatabasePool, consumer: Consumer): Promise<number> {
  const info = await consumer.messaging.jsm.consumers.info(consumer.stream, consumer.durable);
  return metricStore.pruneProcessed(db, Math.max(0, info.ack_floor.stream_seq));
}

/** Prunes every `intervalMs`; a failure (NATS away) is tried again on the next tick. */
export function startProcessedMetricsPruner(db: DatabasePool, consumer: Consumer, log: Logger, intervalMs = 60_000) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = pruneProcessedMetrics(db, consumer).catch((error: unknown) =>
      log.warn({ err: error }, 'could not prune processed metrics; trying again later'),
    );
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
