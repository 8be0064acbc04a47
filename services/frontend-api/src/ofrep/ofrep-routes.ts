import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OfrepBulkAnswer, OfrepErrorBody, OfrepSingleAnswer, type EvaluationContext } from '@bunting/contracts';
import { hash } from 'node:crypto';
import { PreparedContext, evaluateFeature } from '@bunting/evaluation';
import type { HttpServer } from '@bunting/platform';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, secretOf, type EdgeAccess, type TokenKind } from '../access.ts';
import { eventStreamUrl, INACTIVITY_DELAY_SEC, revisionOf } from './ofrep-event-stream.ts';
import { preflight } from '../frontend/cors.ts';
import type { CompiledEnvironment, FrontendFeature } from '../snapshots/compiled-environment.ts';
import { ofrepContext, ofrepError } from './ofrep-context.ts';
import { OfrepTable } from './ofrep-table.ts';
import { answerEtag, decidedEtag, knownAnswers } from '../snapshots/answer-etag.ts';
import { decidedFor } from '../snapshots/context-decides.ts';
import { joinAnswer } from '../frontend/answer-memory.ts';
import { answerWhenReady, sendAtTurnEnd } from '../turn-end-replies.ts';

const SDK_TOKENS: readonly TokenKind[] = ['frontend', 'client'];
const KeyParams = z.object({ key: z.string().min(1).max(255) });
/** OFREP's refusals of a context or a flag: the error shape with OFREP's code. */
const OFREP_ERRORS = { 400: OfrepErrorBody, 404: OfrepErrorBody };
/** A re-fetch an event triggered names the revision it was told of (ADR-0008's sseEtag). */
const BulkQuery = z.object({
  sseEtag: z.string().max(100).optional(),
  sseLastModified: z.string().max(100).optional(),
});
/** How long a replica that has not yet got the revision an event announced waits for it. */
const FRESH_WAIT_MS = 2_000;

/**
 * The OpenFeature Remote Evaluation Protocol over the same snapshots and token scopes as /api/frontend: frontend
 * and client tokens, each seeing its projects in its environment. How answers map is in ofrep-evaluation.ts.
 */
export function ofrepRoutes(app: HttpServer, deps: Pick<FrontendDeps, 'snapshots' | 'tokens' | 'origins' | 'counts'>) {
  const { snapshots, tokens, counts } = deps;

  // CORS: browserRoutesHook (frontend/cors.ts).
  app.options('/ofrep/*', preflight);

  /**
   * The replica's environment, or, when an event told the client of a newer revision than this replica holds (it
   * was sent by another replica), that revision once it arrives here (a moment, at most FRESH_WAIT_MS).
   */
  function atLeast(
    name: string,
    revision: number | null,
  ): CompiledEnvironment | undefined | Promise<CompiledEnvironment | undefined> {
    const current = snapshots.current(name);
    if (revision === null || (current && current.revision >= revision)) return current;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(snapshots.current(name));
      }, FRESH_WAIT_MS);
      const unsubscribe = snapshots.subscribe(name, (next) => {
        if (next.revision < revision) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(next);
      });
    });
  }

  type Scope = {
    access: EdgeAccess & { kind: TokenKind };
    environment: CompiledEnvironment;
    /** The context as given (what bulk answers' ETags are taken over), and made ready for evaluating. */
    raw: EvaluationContext;
    context: PreparedContext;
    targetingKey: boolean;
  };

  /**
   * The token's access, its environment (at least the revision an event announced) and the request's context:
   * without an await when the token and the environment are at hand (the common case), as /api/frontend answers.
   */
  function scope(request: FastifyRequest, announced: number | null = null): Scope | Promise<Scope> {
    const access = edgeAccess(tokens, request, SDK_TOKENS);
    if (access instanceof Promise) return access.then((known) => inEnvironment(request, known, announced));
    return inEnvironment(request, access, announced);
  }

  function inEnvironment(
    request: FastifyRequest,
    access: EdgeAccess & { kind: TokenKind },
    announced: number | null,
  ): Scope | Promise<Scope> {
    const environment = atLeast(access.environment, announced) ?? snapshots.ensure(access.environment);
    if (!(environment instanceof Promise)) return withContext(request, access, environment);
    return environment.then(async (arrived) =>
      withContext(request, access, arrived ?? (await snapshots.ensure(access.environment))),
    );
  }

  function withContext(
    request: FastifyRequest,
    access: EdgeAccess & { kind: TokenKind },
    environment: CompiledEnvironment,
  ): Scope {
    const raw = ofrepContext(request.body, request.ip);
    if (raw.environment === undefined) raw.environment = access.environment;
    counts.ofrep += 1;
    return { access, environment, raw, context: new PreparedContext(raw), targetingKey: raw.userId !== undefined };
  }

  app.post(
    '/ofrep/v1/evaluate/flags/:key',
    {
      schema: {
        summary: 'Evaluate one flag for an OpenFeature context',
        params: KeyParams,
        response: { 200: OfrepSingleAnswer, ...OFREP_ERRORS },
      },
    },
    (request, reply) => {
      return answerWhenReady(scope(request), (scoped) => answerOne(request.params.key, reply, scoped));
    },
  );

  /** One flag's answer, encoded once per answer it can give (OfrepTable), sent with the turn's other answers. */
  function answerOne(key: string, reply: FastifyReply, { access, environment, context, targetingKey }: Scope): void {
    const features = environment.visibleFeatures(access.projects);
    const table = tableOf(features);
    const index = table.indexOf(key);
    if (index === -1) throw ofrepError(404, 'FLAG_NOT_FOUND', `flag ${key} was not found`, key);
    const answer = table.single(index, evaluateFeature(features[index]!.compiled, context).slot, targetingKey);
    if ('errorCode' in answer) throw ofrepError(400, answer.errorCode, answer.errorDetails, key);
    sendAtTurnEnd(reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8'), answer);
  }

  // Every flag the token sees, off ones included: the web provider answers only from this list, and a flag
  // missing from it would give the code's default (perhaps `true`) where the flag is off. The ETag is taken over
  // what decides the answer (the snapshot's revision, the token's projects, each flag's answer code), so a poll
  // that changes nothing is a 304 without making the answer.
  // The ETag also covers the context and the token: an answer for one user is never a 304 for another. Answers to
  // frontend tokens name the change events' stream (eventStreams, OFREP ADR-0008).
  app.post(
    '/ofrep/v1/evaluate/flags',
    {
      schema: {
        summary:
          'Evaluate every flag the token sees for an OpenFeature context (ETag for 304s; eventStreams for frontend tokens)',
        querystring: BulkQuery,
        response: { 200: OfrepBulkAnswer, ...OFREP_ERRORS },
      },
    },
    (request, reply: FastifyReply) => {
      const announced = revisionOf((request.query as z.infer<typeof BulkQuery>).sseEtag);
      return answerWhenReady(scope(request, announced), (scoped) => answerBulk(request, reply, scoped));
    },
  );

  function answerBulk(
    request: FastifyRequest,
    reply: FastifyReply,
    { access, environment, raw, context, targetingKey }: Scope,
  ): void {
    // Only bulk answers have ETags: the one-flag route does not make this key.
    const contextKey = JSON.stringify(raw);
    const features = environment.visibleFeatures(access.projects);
    const answering = environment.answering(features);
    const known = knownAnswers(answering, features, environment);
    // Where the context alone decides every answer, the ETag is taken before evaluating: a poll that changes
    // nothing is a 304 for the cost of a hash.
    let etag = decidedFor(known, raw) ? decidedEtag(known, 'ofrep', access, contextKey, raw) : null;
    if (etag !== null && request.headers['if-none-match'] === etag) {
      reply.header('etag', etag).header('cache-control', 'no-cache');
      return sendAtTurnEnd(reply.code(304));
    }
    if (slots.length < features.length) {
      slots = new Int32Array(features.length * 2);
      picked = new Int32Array(features.length * 2);
    }
    const table = tableOf(features);
    answering.lane.slotsOf(context, slots);
    table.gather(slots, features.length, targetingKey, picked);
    // Otherwise from the answers themselves: each flag's entry in the table, at this revision.
    etag ??= answerEtag(
      `${environment.revision}:${hash('sha1', picked.subarray(0, features.length), 'base64url')}`,
      access,
      contextKey,
    );
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return sendAtTurnEnd(reply.code(304));
    const secret = access.kind === 'frontend' ? secretOf(request) : null;
    const close = secret === null ? FLAGS_CLOSE : closeNamingStream(request, secret);
    const length = FLAGS_OPEN.length + close.length + table.gatheredBytes;
    sendAtTurnEnd(
      reply.type('application/json; charset=utf-8'),
      joinAnswer(FLAGS_OPEN, table.parts, picked, features.length, close, length, reply),
    );
  }
}

/** How many answers' ends naming an event stream are kept: one per frontend token. */
const MOST_STREAM_CLOSES = 256;
const streamCloses = new Map<string, { protocol: string; host: string; close: Buffer }>();

/**
 * The end of a bulk answer to a frontend token, naming its change events' stream; made once per token (every browser
 * with one token asks for the same) and again when the token is reached at another address, and remade for all when
 * more than MOST_STREAM_CLOSES are kept. Kept by the secret alone: a key with the address would be a string made per
 * request.
 */
function closeNamingStream(request: FastifyRequest, secret: string): Buffer {
  const protocol = request.protocol;
  const host = request.host;
  const kept = streamCloses.get(secret);
  if (kept !== undefined && kept.host === host && kept.protocol === protocol) return kept.close;
  if (streamCloses.size >= MOST_STREAM_CLOSES) streamCloses.clear();
  const streams = [{ type: 'sse', url: eventStreamUrl(request, secret), inactivityDelaySec: INACTIVITY_DELAY_SEC }];
  const close = Buffer.from(`],"eventStreams":${JSON.stringify(streams)}}`);
  streamCloses.set(secret, { protocol, host, close });
  return close;
}

const FLAGS_OPEN = Buffer.from('{"flags":[');
const FLAGS_CLOSE = Buffer.from(']}');
// Kept across requests (a bulk answer is made without an await from its first flag to its last): each flag's slot,
// then its entry in the OFREP table.
let slots = new Int32Array(1024);
let picked = new Int32Array(1024);
/** Each flag list's OFREP answers, kept as long as the list is (a snapshot's lifetime). */
const tables = new WeakMap<readonly FrontendFeature[], OfrepTable>();

function tableOf(features: readonly FrontendFeature[]): OfrepTable {
  let table = tables.get(features);
  if (!table) tables.set(features, (table = new OfrepTable(features)));
  return table;
}
