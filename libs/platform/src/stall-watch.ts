import type { Consumer, ConsumerMessages } from '@nats-io/jetstream';
import type { Logger } from './logger.ts';

/**
 * What the server says of a reader's consumer: how many matching messages wait to be delivered, how many it
 * delivered, and the stream sequence of the last one.
 */
export type ConsumerProgress = { waiting: number; deliveredCount: number; deliveredUpTo: number };

/**
 * Whether a reader that has handled the stream up to `handledUpTo` is behind its consumer: messages wait, or the
 * consumer delivered messages the reader never handled (sent to a subscription the client had already left).
 */
export function isBehind(now: ConsumerProgress, handledUpTo: number): boolean {
  return now.waiting > 0 || (now.deliveredCount > 0 && now.deliveredUpTo > handledUpTo);
}

// The library's own notices worth a line in the log: it recreated or lost the consumer. (Missed heartbeats are left
// out: while NATS is away they come every few seconds from every reader, and the watch says when one is stuck.)
const NOTICES: Record<string, 'info' | 'warn'> = {
  ordered_consumer_recreated: 'info',
  reset: 'info',
  consumer_not_found: 'warn',
  consumer_deleted: 'warn',
  stream_not_found: 'warn',
};

/**
 * Watches a stream reader that follows with an ordered consumer. Its consumer lives on one server of the cluster;
 * when that server goes, the client usually recreates it, but not always (a recreation that fails while the stream
 * elects a leader can leave the reader waiting on a consumer that no longer exists, with nothing in the log). So,
 * after `quietMs` without a message, the watch asks the server about the consumer: unreachable or gone, or behind
 * (see isBehind) at two looks in a row with nothing handled between, and the reader is closed for its loop to open a
 * new one from what it handled, said in the log.
 */
export function watchForStall(options: {
  consumer: Consumer;
  messages: ConsumerMessages;
  log: Logger;
  quietMs: number;
  /** When the reader last received a message (or opened). */
  lastHeard: () => number;
  /** The stream sequence of the last message the reader handled. */
  handledUpTo: () => number;
  /**
   * Whether the stream is another one than the reader opened on (deleted and made anew, numbering from 1 again):
   * the client's own recreation resumes after the old numbering, where nothing will come for a long time.
   */
  streamChanged?: () => Promise<boolean>;
  /** Told when the watch closes the reader (for its metrics). */
  onRestart?: () => void;
}): () => void {
  const { consumer, messages, log, quietMs } = options;
  let behindBefore = false;
  let checking = false;
  let stopped = false;

  const restart = (reason: string, detail: Record<string, unknown> = {}) => {
    if (stopped) return;
    stopped = true;
    options.onRestart?.();
    log.warn({ reason, ...detail }, 'stream reader stalled; recreating its consumer');
    void messages.close().catch(() => undefined);
  };

  const timer = setInterval(
    () => {
      if (checking || stopped) return;
      if (Date.now() - options.lastHeard() < quietMs) {
        behindBefore = false;
        return;
      }
      checking = true;
      void (async () => {
        try {
          if (options.streamChanged && (await withTimeout(options.streamChanged(), quietMs))) {
            restart('its stream was made anew');
            return;
          }
          const info = await withTimeout(consumer.info(false), quietMs);
          const now = {
            waiting: info.num_pending,
            deliveredCount: info.delivered.consumer_seq,
            deliveredUpTo: info.delivered.stream_seq,
          };
          const behind = isBehind(now, options.handledUpTo());
          if (behind && behindBefore)
            restart('messages wait for it that it does not receive', { ...now, handledUpTo: options.handledUpTo() });
          behindBefore = behind;
        } catch (error) {
          restart('its consumer cannot be reached', { err: error });
        } finally {
          checking = false;
        }
      })();
    },
    Math.max(250, Math.floor(quietMs / 2)),
  );
  timer.unref();

  // The library's notices, so a recreated or lost consumer shows in the log.
  void (async () => {
    try {
      for await (const notice of messages.status()) {
        const level = NOTICES[notice.type];
        if (level) log[level]({ notice: notice.type }, 'stream reader notice');
        if (stopped) break;
      }
    } catch {
      // The reader was closed.
    }
  })();

  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
