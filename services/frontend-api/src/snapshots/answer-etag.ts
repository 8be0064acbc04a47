import { createHash, type Hash } from 'node:crypto';
import type { EdgeAccess } from '../access.ts';
import type { Answering, CompiledEnvironment, FrontendFeature } from './compiled-environment.ts';
import { contextDecides, decidedFor, flagsFingerprint } from './context-decides.ts';

export type KnownAnswers = { random: boolean; timed: boolean; fingerprint: Buffer };

/** Whether each flag list's answers follow from the context alone, and what they are made from. */
const knownByAnswering = new WeakMap<Answering, KnownAnswers>();

/** What decides a flag list's answers (see context-decides.ts), worked out once for the list's lifetime. */
export function knownAnswers(
  answering: Answering,
  features: readonly FrontendFeature[],
  environment: CompiledEnvironment,
): KnownAnswers {
  let known = knownByAnswering.get(answering);
  if (!known) {
    const compiled = features.map((feature) => feature.compiled);
    const segments = environment.snapshot.segments;
    known = { ...contextDecides(compiled, segments), fingerprint: flagsFingerprint(compiled, segments) };
    knownByAnswering.set(answering, known);
  }
  return known;
}

/**
 * An ETag from `hash` (what the answer is made of) and who asks: the token's projects and name and the whole context,
 * so an answer for one user or token is never a 304 for another.
 */
export function answerEtag(hash: Hash, access: EdgeAccess, contextKey: string): string {
  const digest = hash
    .update(`:${access.projects.join(',')}:${access.tokenName}:${contextKey}:`)
    .digest('base64url')
    .slice(0, 16);
  return `"${digest}"`;
}

/**
 * The ETag of an answer decided before evaluating, or null when the context does not decide it (no id to stick to, a
 * flag drawing at random, a dated flag without the context's time). `kind` keeps answers of different routes apart.
 */
export function decidedEtag(
  known: KnownAnswers,
  kind: string,
  access: EdgeAccess,
  context: { userId?: unknown; sessionId?: unknown; currentTime?: unknown },
  contextKey: string,
): string | null {
  if (!decidedFor(known, context)) return null;
  return answerEtag(createHash('sha1').update(known.fingerprint).update(kind), access, contextKey);
}
