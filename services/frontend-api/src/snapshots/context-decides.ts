import { createHash } from 'node:crypto';
import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import { constraintInstant } from '@bunting/evaluation';

const TIMED = new Set(['DATE_AFTER', 'DATE_BEFORE']);

/**
 * Whether a list of flags answers a context the same way every time it is asked, so that a poll's ETag can be taken
 * from the flags' fingerprint and the context alone and a 304 costs no evaluation. `random` says it does not: a flag
 * draws at random (gradualRolloutRandom, `random` stickiness) or asks the answering host's name. `instants`: the
 * dates the flags' and segments' date constraints compare the clock with, in order; between two of them the answers
 * stay the same (clockEpoch). The caller also needs an id in the context, since default stickiness without userId or
 * sessionId draws at random.
 */
export function contextDecides(features: readonly { source: ClientFeature }[], segments: readonly ClientSegment[]) {
  const instants = new Set<number>();
  const readDates = (constraints: readonly { operator: string; value?: string }[] | undefined) => {
    for (const constraint of constraints ?? []) {
      if (!TIMED.has(constraint.operator)) continue;
      const instant = constraintInstant(constraint);
      if (instant !== undefined) instants.add(instant);
    }
  };
  for (const segment of segments) readDates(segment.constraints);
  let random = false;
  for (const { source } of features) {
    if (source.variants?.some((variant) => variant.stickiness === 'random')) random = true;
    for (const strategy of source.strategies ?? []) {
      if (strategy.name === 'gradualRolloutRandom' || strategy.parameters?.stickiness === 'random') random = true;
      // The answering host's name: edges behind one address may answer differently.
      if (strategy.name === 'applicationHostname') random = true;
      if (strategy.variants?.some((variant) => variant.stickiness === 'random')) random = true;
      readDates(strategy.constraints);
    }
  }
  return { random, instants: [...instants].sort((a, b) => a - b) };
}

/** The same for one request: by the flags' answers alone, and with its context's id. */
export function decidedFor(flags: { random: boolean }, context: { userId?: unknown; sessionId?: unknown }): boolean {
  if (flags.random) return false;
  return context.userId !== undefined || context.sessionId !== undefined;
}

/**
 * Which of the flags' dates a request's time has passed, as text: a date constraint compares the time with one date
 * (after: later than it; before: earlier), so answers change only when this does. Empty when no flag reads the clock;
 * a context with its own currentTime is in the ETag already, and the evaluator reads the clock only without one.
 */
export function clockEpoch(
  flags: { instants: readonly number[] },
  context: { currentTime?: unknown },
  now = Date.now(),
): string {
  if (flags.instants.length === 0 || context.currentTime) return '';
  return `${countBefore(flags.instants, now, false)}.${countBefore(flags.instants, now, true)}`;
}

/** How many of the sorted `instants` are before `now` (or at it, when `inclusive`): a binary search per poll. */
function countBefore(instants: readonly number[], now: number, inclusive: boolean): number {
  let low = 0;
  let high = instants.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const instant = instants[middle]!;
    if (instant < now || (inclusive && instant === now)) low = middle + 1;
    else high = middle;
  }
  return low;
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
