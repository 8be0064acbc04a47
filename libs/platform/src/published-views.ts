import { gunzipSync, gzipSync } from 'node:zlib';
import type { z } from 'zod';
import { viewReply, type PublishedView } from '@bunting/contracts';
import { DomainError } from './errors.ts';
import type { Messaging } from './messaging.ts';

/** What an asker hears when the answering service cannot answer now: a 503 the caller may retry. */
export class ViewUnavailableError extends DomainError {
  constructor(view: PublishedView) {
    super(503, 'ServiceUnavailableError', `The ${view.name} answer is unavailable right now; try again shortly.`, {
      headers: { 'retry-after': '1' },
    });
  }
}

function encode(view: PublishedView, value: unknown): Uint8Array | string {
  const text = JSON.stringify(value);
  return view.gzip ? gzipSync(text) : text;
}

function decode(view: PublishedView, data: Uint8Array): unknown {
  return JSON.parse(view.gzip ? gunzipSync(data).toString('utf8') : Buffer.from(data).toString('utf8'));
}

/**
 * Asks admin-api one of its published views. The answer is checked against the view's contract; no answer in
 * time, an answer saying there is none, or one that does not fit, all throw ViewUnavailableError (503).
 */
export async function askView<Q extends z.ZodType, A extends z.ZodType>(
  messaging: Pick<Messaging, 'nc' | 'names' | 'connected'>,
  view: PublishedView<Q, A>,
  request: z.input<Q>,
): Promise<z.output<A>> {
  // While NATS is down a request would only wait out its timeout.
  if (!messaging.connected()) throw new ViewUnavailableError(view);
  let raw: unknown;
  try {
    const reply = await messaging.nc.request(messaging.names.view(view.name, view.service), encode(view, request), {
      timeout: view.timeoutMs,
    });
    raw = decode(view, reply.data);
  } catch {
    throw new ViewUnavailableError(view);
  }
  const parsed = viewReply(view.answer).safeParse(raw);
  if (!parsed.success || !('answer' in parsed.data)) throw new ViewUnavailableError(view);
  return parsed.data.answer as z.output<A>;
}

/**
 * Answers a published view as one queue group, so admin-api's replicas share the questions. A request that does not
 * fit the contract, or a handler that fails, is answered with an error the asker turns into a 503.
 */
export function answerView<Q extends z.ZodType, A extends z.ZodType>(
  messaging: Pick<Messaging, 'nc' | 'names' | 'log'>,
  view: PublishedView<Q, A>,
  handle: (request: z.output<Q>) => Promise<z.input<A>>,
): { stop: () => void } {
  const subscription = messaging.nc.subscribe(messaging.names.view(view.name, view.service), {
    // One queue group per answering service, so its replicas share the questions.
    queue: view.service && view.service !== 'admin' ? view.service : 'admin-api',
    callback: (error, message) => {
      if (error) return;
      void (async () => {
        try {
          const request = view.request.parse(decode(view, message.data));
          message.respond(encode(view, { answer: await handle(request) }));
        } catch (failure) {
          messaging.log.warn({ err: failure, view: view.name }, 'could not answer a published view');
          message.respond(encode(view, { error: 'unavailable' }));
        }
      })();
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
