import type { Messaging } from './messaging.ts';

/**
 * Answers NATS requests on a subject as one queue group, so replicas share them. `failure` says what to
 * answer when the handler throws; without an answer the requester times out.
 */
export function answerRequests(options: {
  messaging: Messaging;
  subject: string;
  queue: string;
  handle: (request: unknown) => Promise<string | Uint8Array>;
  failure?: (error: unknown) => string | Uint8Array | undefined;
}) {
  const { messaging } = options;
  const subscription = messaging.nc.subscribe(options.subject, {
    queue: options.queue,
    callback: (error, message) => {
      if (error) return;
      void (async () => {
        try {
          message.respond(await options.handle(message.json()));
        } catch (failure) {
          messaging.log.warn({ err: failure, subject: options.subject }, 'could not answer a request');
          const answer = options.failure?.(failure);
          if (answer !== undefined) message.respond(answer);
        }
      })();
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
