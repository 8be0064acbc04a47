import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { SignalAccepted, SYSTEM_ACTOR, type ReceivedSignal } from '@bunting/contracts';
import {
  AuthenticationRequired,
  JsonBodyError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  readJsonBody,
  type HttpServer,
} from '@bunting/platform';
import type { SignalsDeps } from '../signals-deps.ts';
import { endpointReadModel } from '../endpoints/endpoint-read-model.ts';
import { hashToken } from '../endpoints/endpoint-service.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { signalStore } from './signal-store.ts';

/**
 * POST /api/signal-endpoint/:endpointName delivers a signal. The bearer token must be one of the endpoint's;
 * the body is optional and, when present, any JSON. An accepted signal is stored with its source token and
 * put on the signals stream through the outbox before the answer, so a NATS outage loses none.
 */
/** What became of a signal sent, by the answer it got (a bounded label set). */
const OUTCOMES: Record<number, string> = {
  202: 'accepted',
  400: 'bad_body',
  401: 'unauthorized',
  404: 'unknown_endpoint',
  413: 'too_large',
  415: 'bad_body',
  429: 'rate_limited',
};

export function ingestionRoutes(
  app: HttpServer,
  deps: Pick<SignalsDeps, 'db' | 'changes' | 'config' | 'messaging' | 'redis' | 'namespace' | 'metrics'>,
) {
  const { db, changes, config, messaging } = deps;
  const received = deps.metrics.counter(
    'bunting_signals_total',
    'Signals posted to signal endpoints, by outcome (accepted, rate_limited, too_large, unauthorized, ...)',
    ['outcome'],
  );
  const limiter = createRateLimiter(deps.redis, deps.namespace, config.requestsPerSecond);

  // Senders label bodies in many ways; whatever the content type, the body must be JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, raw, done) => {
    try {
      done(null, readJsonBody(typeof raw === 'string' ? raw : raw.toString('utf8')));
    } catch (error) {
      done(
        error instanceof JsonBodyError && error.fault === 'syntax'
          ? ValidationError.field('body', 'the signal body must be JSON')
          : (error as Error),
        undefined,
      );
    }
  });

  app.post(
    '/api/signal-endpoint/:endpointName',
    {
      bodyLimit: config.maxPayloadBytes,
      onResponse: (_request, reply, done) => {
        received.inc({ outcome: OUTCOMES[reply.statusCode] ?? (reply.statusCode >= 500 ? 'error' : 'refused') });
        done();
      },
      schema: {
        summary: 'Send a signal to an endpoint (its token as a bearer token)',
        params: z.object({ endpointName: z.string().min(1).max(255) }),
        response: { 202: SignalAccepted },
      },
    },
    async (request, reply) => {
      const endpoint = await endpointReadModel.byName(db, request.params.endpointName);
      if (!endpoint || !endpoint.enabled)
        throw new NotFoundError(`Could not find signal endpoint ${request.params.endpointName}`);
      const header = request.headers.authorization;
      const secret = typeof header === 'string' ? header.replace(/^bearer\s+/i, '').trim() : '';
      const token = secret ? await endpointReadModel.tokenByHash(db, endpoint.id, hashToken(secret)) : null;
      if (!token)
        throw new AuthenticationRequired(
          'A valid token of this signal endpoint is required (Authorization: Bearer <token>).',
        );
      const wait = await limiter.take(String(endpoint.id));
      if (wait !== null) {
        throw new RateLimitError(
          `Signal endpoint ${endpoint.name} accepts ${config.requestsPerSecond} request(s) per second.`,
          Math.ceil(wait / 1000),
        );
      }
      const payload = request.body ?? null;
      const signal = await changes.run(SYSTEM_ACTOR, async (change) => {
        const row = await signalStore.insert(change.tx, {
          endpointId: endpoint.id,
          tokenId: token.id,
          tokenName: token.name,
          payload,
        });
        // The newest are kept, a bounded number per endpoint; the stream carries each one to the actions already.
        await signalStore.keepNewest(change.tx, endpoint.id, config.keptPerEndpoint);
        const received: ReceivedSignal = {
          id: row.id,
          endpointId: endpoint.id,
          endpointName: endpoint.name,
          tokenName: token.name,
          payload,
          createdAt: row.createdAt,
        };
        change.publish({
          uuid: randomUUID(),
          subject: messaging.names.signalSubject(String(endpoint.id)),
          payload: received,
        });
        return received;
      });
      return reply.code(202).send({ id: signal.id });
    },
  );
}
