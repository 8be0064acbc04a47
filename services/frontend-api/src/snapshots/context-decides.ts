import { createHash } from 'node:crypto';
import type { ClientFeature, ClientSegment } from '@bunting/contracts';

const TIMED = new Set(['DATE_AFTER', 'DATE_BEFORE']);

/**
 * Whether a list of flags answers a context the same way every time it is asked, so that a poll's ETag can be taken
 * from the flags' fingerprint and the context alone and a 304 costs no evaluation. `random` says it does not: a flag
 * draws at random (gradualRolloutRandom, `random` stickiness) or asks the answering host's name. `timed`: a flag or
 * segment reads the clock (date constraints). The caller also needs an id in the context, since default stickiness
 * without userId or sessionId draws at random.
 */
export function contextDecides(features: readonly { source: ClientFeature }[], segments: readonly ClientSegment[]) {
  let timed = segments.some((segment) => segment.constraints.some((constraint) => TIMED.has(constraint.operator)));
  let random = false;
  for (const { source } of features) {
    if (source.variants?.some((variant) => variant.stickiness === 'random')) random = true;
    for (const strategy of source.strategies ?? []) {
      if (strategy.name === 'gradualRolloutRandom' || strategy.parameters?.stickiness === 'random') random = true;
      // The answering host's name: edges behind one address may answer differently.
      if (strategy.name === 'applicationHostname') random = true;
      if (strategy.variants?.some((variant) => variant.stickiness === 'random')) random = true;
      if (strategy.constraints?.some((constraint) => TIMED.has(constraint.operator))) timed = true;
    }
  }
  return { random, timed };
}

/** The same for one request: by the flags' answers alone, or with its context's id and, for dated flags, its time. */
export function decidedFor(
  flags: { random: boolean; timed: boolean },
  context: { userId?: unknown; sessionId?: unknown; currentTime?: unknown },
): boolean {
  if (flags.random) return false;
  if (context.userId === undefined && context.sessionId === undefined) return false;
  return !flags.timed || context.currentTime !== undefined;
}

const digests = new WeakMap<object, Buffer>();

/**
 * What a list of flags answers with, as 16 bytes: each flag's definition hashed once while it lives (a change hashes
 * only the flags it touched), combined with the segments'. Not the revision: standalone edges number revisions each
 * their own way, and an SDK's next poll may reach another edge.
 */
export function flagsFingerprint(
  features: readonly { source: ClientFeature }[],
  segments: readonly ClientSegment[],
): Buffer {
  const combined = createHash('sha1').update(JSON.stringify(segments)).digest().subarray(0, 16);
  for (const feature of features) {
    let digest = digests.get(feature);
    if (!digest) {
      digest = createHash('sha1')
        .update(JSON.stringify(withoutIds(feature.source)))
        .digest()
        .subarray(0, 16);
      digests.set(feature, digest);
    }
    // Order-free, so the same flags listed in another order answer alike.
    for (let index = 0; index < 16; index += 1) combined[index]! ^= digest[index]!;
  }
  return combined;
}

/** Strategy ids decide nothing, and an environment may lend another's compiled flag (ids differing). */
function withoutIds(source: ClientFeature) {
  return { ...source, strategies: source.strategies?.map(({ id: _id, ...strategy }) => strategy) };
}
