import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OfrepBulkAnswer, OfrepErrorBody, OfrepSingleAnswer } from '@bunting/contracts';
import { createHash } from 'node:crypto';
import { PreparedContext, evaluateFeature } from '@bunting/evaluation';
import type { HttpServer } from '@bunting/platform';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, type EdgeAccess, type TokenKind } from '../access.ts';
import { preflight } from '../frontend/cors.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import { ofrepContext, ofrepError } from './ofrep-context.ts';
import { encodedOfrepAnswer, ofrepAnswerCode, ofrepResult } from './ofrep-evaluation.ts';
import { joinAnswer } from '../frontend/answer-memory.ts';
import { sendAtTurnEnd, settledAfterSend } from '../turn-end-replies.ts';

const SDK_TOKENS: readonly TokenKind[] = ['frontend', 'client'];
const KeyParams = z.object({ key: z.string().min(1).max(255) });
/** OFREP's refusals of a context or a flag: the error shape with OFREP's code. */
const OFREP_ERRORS = { 400: OfrepErrorBody, 404: OfrepErrorBody };

/**
 * The OpenFeature Remote Evaluation Protocol over the same snapshots and token scopes as /api/frontend: frontend
 * and client tokens, each seeing its projects in its environment. How answers map is in ofrep-evaluation.ts.
 */
export function ofrepRoutes(app: HttpServer, deps: Pick<FrontendDeps, 'snapshots' | 'tokens' | 'origins' | 'counts'>) {
  const { snapshots, tokens, counts } = deps;

  // CORS: browserRoutesHook (frontend/cors.ts).
  app.options('/ofrep/*', preflight);

  async function scope(request: FastifyRequest): Promise<{ access: EdgeAccess & { kind: TokenKind }; environment: CompiledEnvironment; context: PreparedContext; targetingKey: boolean }> {
    const access = await edgeAccess(tokens, request, SDK_TOKENS);
    const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
    const raw = ofrepContext(request.body, request.ip);
    if (raw.environment === undefined) raw.environment = access.environment;
    const targetingKey = raw.userId !== undefined;
    counts.ofrep += 1;
    delete raw.targetingKey;
    return { access, environment, context: new PreparedContext(raw), targetingKey };
  }

  app.post('/ofrep/v1/evaluate/flags/:key', { schema: { summary: 'Evaluate one flag for an OpenFeature context', params: KeyParams, response: { 200: OfrepSingleAnswer, ...OFREP_ERRORS } } }, async (request, reply) => {
    const { key } = request.params;
    const { access, environment, context, targetingKey } = await scope(request);
    const feature = environment.visibleFeatures(access.projects).find((candidate) => candidate.compiled.name === key);
    if (!feature) throw ofrepError(404, 'FLAG_NOT_FOUND', `flag ${key} was not found`, key);
    const result = ofrepResult(feature.compiled.source, evaluateFeature(feature.compiled, context), targetingKey);
    if ('errorCode' in result) throw ofrepError(400, result.errorCode, result.errorDetails, key);
    return reply.header('cache-control', 'no-cache').send({ ...result, cacheable: false });
  });

  // Every flag the token sees, off ones included: the web provider answers only from this list, and a flag
  // missing from it would give the code's default (perhaps `true`) where the flag is off. The ETag is taken over
  // what decides the answer (the snapshot's revision, the token's projects, each flag's answer code), so a poll
  // that changes nothing is a 304 without making the answer.
  app.post('/ofrep/v1/evaluate/flags', { schema: { summary: 'Evaluate every flag the token sees for an OpenFeature context (ETag for 304s)', response: { 200: OfrepBulkAnswer, ...OFREP_ERRORS } } }, (request, reply: FastifyReply) =>
    settledAfterSend(scope(request).then(({ access, environment, context, targetingKey }) => {
      const features = environment.visibleFeatures(access.projects);
      if (codes.length < features.length) {
        codes = new Uint32Array(features.length * 2);
        slots = new Int32Array(features.length * 2);
      }
      environment.answering(features).lane.slotsOf(context, slots);
      for (let index = 0; index < features.length; index += 1) codes[index] = ofrepAnswerCode(features[index]!.compiled, slots[index]!, targetingKey);
      const etag = `"${createHash('sha1').update(`${environment.revision}:${access.projects.join(',')}:`)
        .update(codes.subarray(0, features.length)).digest('base64url').slice(0, 16)}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return sendAtTurnEnd(reply.code(304));
      let length = FLAGS_OPEN.length + FLAGS_CLOSE.length;
      for (let index = 0; index < features.length; index += 1) {
        const answer = encodedOfrepAnswer(features[index]!, codes[index]!, targetingKey);
        parts[index] = answer;
        length += answer.length + 1;
      }
      return sendAtTurnEnd(reply.type('application/json; charset=utf-8'), joinAnswer(FLAGS_OPEN, parts, null, features.length, FLAGS_CLOSE, length, reply));
    })));
}

const FLAGS_OPEN = Buffer.from('{"flags":[');
const FLAGS_CLOSE = Buffer.from(']}');
// Kept across requests (a bulk answer is made without an await from its first flag to its last).
let codes = new Uint32Array(1024);
let slots = new Int32Array(1024);
const parts: Buffer[] = [];
