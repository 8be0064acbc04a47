import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { FeedHydration, FeedHydrationPart, type FeedScope } from '@bunting/contracts';
import {
  followStream,
  lastMessageOn,
  type Logger,
  type Messaging,
  type Metrics,
  type RunningConsumer,
} from '@bunting/platform';

/** A delta message as every feed writes it: a revision and its events, or a note that the revision is a hydration. */
const AnyDelta = z.object({ revision: z.number(), hydration: z.boolean().optional() }).loose();

export type FeedReader = {
  /**
   * Resolves once this reader has handled what the feed held when asked (at most `ms` later): false when the stream
   * could not be asked (JetStream without a quorum), so a caller need not wait on for what cannot come.
   */
  caughtUp: (ms: number) => Promise<boolean>;
  stop: () => Promise<void>;
};

type Deps<Delta> = {
  messaging: Messaging;
  scope: FeedScope;
  log: Logger;
  metrics?: Metrics;
  /** The revision handled last (0 before the first hydration). */
  current: () => number;
  /** The scope whole at a revision, from its hydration's body (JSON, as the parts joined and gunzipped read). */
  onWhole: (body: unknown, revision: number) => void;
  /** The next revision's delta, as written. */
  onDelta: (delta: Delta) => void;
  deltaSchema: z.ZodType<Delta>;
};

/** How long a reader waits before looking again for a hydration that is not there yet (a fresh install). */
const RETRY_MS = 500;

/**
 * Reads one scope of the configuration feed from the stream alone: the last hydration (its parts joined and
 * gunzipped), then every delta after it in order. A delta that is a hydration, or one that skips a revision (the
 * stream let older ones go), starts again from the last hydration, which is at least that new: nothing missed is
 * ever served as if it had not happened.
 */
export function readFeed<Delta extends { revision: number; hydration?: boolean }>(deps: Deps<Delta>): FeedReader {
  const { messaging, scope, log } = deps;
  const stream = messaging.names.feedStream;
  const subjects = messaging.names.feed(scope);
  let stopped = false;
  let follower: RunningConsumer | undefined;
  let handledSeq = 0;
  let wake: (() => void) | undefined;
  let restart: (() => void) | undefined;

  const last = (subject: string) => lastMessageOn(messaging, stream, subject);

  /** The last hydration installed; its stream sequence, or undefined when there is none yet. */
  async function hydrate(): Promise<number | undefined> {
    const stored = await last(subjects.hydration);
    if (!stored) return undefined;
    const manifest = FeedHydration.parse(stored.json());
    if (manifest.revision > deps.current()) {
      const parts = await Promise.all(
        Array.from({ length: manifest.parts }, async (_, index) => {
          const part = await last(subjects.part(manifest.revision, index + 1));
          if (!part) throw new Error(`part ${index + 1} of the hydration of revision ${manifest.revision} is missing`);
          return Buffer.from(FeedHydrationPart.parse(part.json()).data, 'base64');
        }),
      );
      deps.onWhole(JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8')), manifest.revision);
    }
    return stored.seq;
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        const fromSeq = await hydrate();
        if (fromSeq === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, RETRY_MS);
          });
          continue;
        }
        handledSeq = Math.max(handledSeq, fromSeq);
        const restarted = new Promise<void>((resolve) => {
          restart = resolve;
        });
        follower = followStream({
          messaging,
          stream,
          filterSubject: subjects.delta,
          schema: AnyDelta,
          fromSequence: fromSeq + 1,
          metrics: deps.metrics,
          handle: (raw, message) => {
            handledSeq = message.seq;
            if (raw.revision <= deps.current()) return;
            const delta = deps.deltaSchema.safeParse(raw);
            if (raw.hydration || raw.revision !== deps.current() + 1 || !delta.success) {
              if (!delta.success)
                log.warn(
                  { revision: raw.revision },
                  'a feed delta that does not fit its contract: reading the hydration instead',
                );
              restart?.();
              return;
            }
            deps.onDelta(delta.data);
          },
        });
        await restarted;
        await follower.stop();
        follower = undefined;
      } catch (error) {
        if (stopped) break;
        log.warn({ err: error }, 'cannot read the configuration feed now; trying again');
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 1000);
        });
      }
    }
  })();

  return {
    async caughtUp(ms) {
      const deadline = Date.now() + ms;
      const lastDelta = await last(subjects.delta).catch(() => undefined);
      if (lastDelta === undefined) return false;
      const target = lastDelta?.seq ?? 0;
      while (handledSeq < target && Date.now() < deadline && !stopped)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return true;
    },
    async stop() {
      stopped = true;
      restart?.();
      wake?.();
      await follower?.stop();
      await loop;
    },
  };
}
