import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  FrontendAllAnswer,
  FrontendAnswer,
  FrontendToggle,
  NoContent,
  ClientMetrics,
  FrontendRegistration,
  PathName,
} from '@bunting/contracts';
import { NotFoundError, ValidationError, type HttpServer } from '@bunting/platform';
import { metricsEnvelope } from '../metrics/metrics-publisher.ts';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, type EdgeAccess } from '../access.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import { visibleBucket } from '../metrics/visible-metrics.ts';
import { PreparedContext, evaluateFeature } from '@bunting/evaluation';
import { frontendContext } from './frontend-context.ts';
import { preflight } from './cors.ts';
import { answerWhenReady, sendAtTurnEnd } from '../turn-end-replies.ts';
import { joinAnswer } from './answer-memory.ts';
import { decidedEtag, knownAnswers } from '../snapshots/answer-etag.ts';
import { decidedFor } from '../snapshots/context-decides.ts';

const TOGGLES_OPEN = Buffer.from('{"toggles":[');
const TOGGLES_CLOSE = Buffer.from(']}');
// Kept across requests (answering is synchronous from the first flag to joinAnswer): each flag's slot, then the
// toggle table's entries gathered for the answer (only the first `count` belong to this request).
let slots = new Int32Array(256);
let picked = new Int32Array(256);

/** The context of a POST: the body's `context`, or the body itself, as the SDKs send either. */
function contextOf(rawBody: unknown): Record<string, unknown> {
  const body = rawBody ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw ValidationError.field('context', 'must be an object');
  const context = (body as Record<string, unknown>).context ?? body;
  if (typeof context !== 'object' || context === null || Array.isArray(context))
    throw ValidationError.field('context', 'must be an object');
  return context as Record<string, unknown>;
}

export function frontendRoutes(
  app: HttpServer,
  deps: Pick<FrontendDeps, 'config' | 'snapshots' | 'tokens' | 'sendMetrics' | 'origins' | 'counts'>,
) {
  const { config, snapshots, tokens, counts } = deps;

  // CORS and the frontend API's switch: browserRoutesHook (cors.ts), one hook with OFREP's.
  app.options('/api/frontend', preflight);
  app.options('/api/frontend/*', preflight);

  type Scope = { only?: string; includeOff?: boolean };

  const NO_SCOPE: Scope = {};

  /**
   * Answered without a single await when the environment's snapshot is at hand (the common case: the token is
   * checked in memory); otherwise after loading the snapshot.
   */
  function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    input: Record<string, unknown>,
    scope: Scope = NO_SCOPE,
  ): void | Promise<void> {
    return answerWhenReady(edgeAccess(tokens, request, 'frontend'), (access) =>
      answerFor(request, reply, input, access, scope),
    );
  }

  function answerFor(
    request: FastifyRequest,
    reply: FastifyReply,
    input: Record<string, unknown>,
    access: EdgeAccess,
    scope: Scope,
  ) {
    const environment = snapshots.current(access.environment);
    if (environment) return respond(request, reply, input, access, environment, scope);
    return snapshots.ensure(access.environment).then((loaded) => respond(request, reply, input, access, loaded, scope));
  }

  function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    input: Record<string, unknown>,
    access: EdgeAccess,
    environment: CompiledEnvironment,
    { only, includeOff = false }: Scope,
  ) {
    const raw = frontendContext(input, request.ip);
    if (raw.environment === undefined) raw.environment = access.environment;
    counts.frontend += 1;
    const context = new PreparedContext(raw);
    const features = environment.visibleFeatures(access.projects);
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    if (only !== undefined) {
      const feature = features.find((candidate) => candidate.compiled.name === only);
      const result = feature && evaluateFeature(feature.compiled, context);
      if (!feature || !result?.enabled) throw new NotFoundError(`Flag ${only} is not enabled for this context`);
      return sendAtTurnEnd(reply, feature.toggle(result));
    }
    const answering = environment.answering(features);
    // A browser polls with the ETag of its last answer: where the context alone decides every flag, the same
    // context at the same flags is a 304 without evaluating (10,000 flags cost about 0.5 ms of CPU an answer).
    const known = knownAnswers(answering, features, environment);
    if (decidedFor(known, raw)) {
      const etag = decidedEtag(known, includeOff ? 'frontend-all' : 'frontend', access, JSON.stringify(raw), raw);
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return sendAtTurnEnd(reply.code(304));
    }
    if (slots.length < features.length) {
      slots = new Int32Array(features.length * 2);
      picked = new Int32Array(features.length * 2);
    }
    const { lane, toggles } = answering;
    lane.slotsOf(context, slots);
    const count = includeOff
      ? toggles.gatherAll(slots, features.length, picked)
      : toggles.gatherOn(slots, features.length, picked);
    const length = TOGGLES_OPEN.length + TOGGLES_CLOSE.length + toggles.gatheredBytes;
    return sendAtTurnEnd(reply, joinAnswer(TOGGLES_OPEN, toggles.parts, picked, count, TOGGLES_CLOSE, length, reply));
  }

  app.get(
    '/api/frontend',
    {
      schema: { summary: 'The flags on for a context (given as query parameters)', response: { 200: FrontendAnswer } },
    },
    (request, reply) => answer(request, reply, request.query as Record<string, unknown>),
  );

  app.post(
    '/api/frontend',
    { schema: { summary: 'The flags on for a context (given in the body)', response: { 200: FrontendAnswer } } },
    (request, reply) => answer(request, reply, contextOf(request.body)),
  );

  // Every flag the token sees, off ones with enabled false, when the installation allows it.
  const all = { includeOff: true };
  function requireAllEndpoint() {
    if (!config.allEndpointEnabled)
      throw new NotFoundError('/api/frontend/all is not enabled on this installation (FRONTEND_API_ALL_ENDPOINT).');
  }
  app.get(
    '/api/frontend/all',
    {
      schema: {
        summary: 'Every flag the token sees, off ones marked, for a context (when enabled)',
        response: { 200: FrontendAllAnswer },
      },
    },
    (request, reply) => {
      requireAllEndpoint();
      return answer(request, reply, request.query as Record<string, unknown>, all);
    },
  );
  app.post(
    '/api/frontend/all',
    {
      schema: {
        summary: 'Every flag the token sees, off ones marked, for a context in the body (when enabled)',
        response: { 200: FrontendAllAnswer },
      },
    },
    (request, reply) => {
      requireAllEndpoint();
      return answer(request, reply, contextOf(request.body), all);
    },
  );

  const FlagParams = z.object({ featureName: PathName });
  app.get(
    '/api/frontend/features/:featureName',
    {
      schema: {
        summary: 'One flag for a context; 404 when it is off',
        params: FlagParams,
        response: { 200: FrontendToggle },
      },
    },
    (request, reply) =>
      answer(request, reply, request.query as Record<string, unknown>, { only: request.params.featureName }),
  );
  app.post(
    '/api/frontend/features/:featureName',
    {
      schema: {
        summary: 'One flag for a context in the body; 404 when it is off',
        params: FlagParams,
        response: { 200: FrontendToggle },
      },
    },
    (request, reply) => answer(request, reply, contextOf(request.body), { only: request.params.featureName }),
  );

  app.post(
    '/api/frontend/client/metrics',
    { schema: { summary: 'Usage counts from a frontend SDK', body: ClientMetrics, response: { 200: NoContent } } },
    async (request, reply) => {
      const access = await edgeAccess(tokens, request, 'frontend');
      const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
      await deps.sendMetrics({
        kind: 'frontend-metrics',
        ...metricsEnvelope(access),
        body: visibleBucket(request.body, access, environment),
      });
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/frontend/client/register',
    {
      schema: { summary: 'A frontend SDK announcing itself', body: FrontendRegistration, response: { 200: NoContent } },
    },
    async (request, reply) => {
      const access = await edgeAccess(tokens, request, 'frontend');
      await deps.sendMetrics({
        kind: 'frontend-register',
        ...metricsEnvelope(access),
        body: request.body,
      });
      return reply.code(200).send();
    },
  );
}
