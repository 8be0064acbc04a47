import { TokenFeedBody, TokenFeedDelta, type SdkToken } from '@bunting/contracts';
import type { Logger, Messaging, Metrics } from '@bunting/platform';
import { hashSecret, type SdkTokens } from '../tokens/sdk-tokens.ts';
import { readFeed } from './feed-reader.ts';

/** A secret the feed did not know even once caught up is not looked for again for this long. */
const UNKNOWN_FOR_MS = 10_000;
/** How long a look for an unknown secret waits for the feed to catch up, and then for a newer revision of it. */
const CATCH_UP_MS = 2_000;
const NEXT_REVISION_MS = 1_000;

/**
 * The cluster edge's copy of the API tokens (hashes and their scope), followed from the token feed admin-api writes
 * with each token change: an SDK request is verified here, in memory, whatever else is down. A secret not held may
 * be a token made a moment ago: the edge catches up with the feed (not admin-api) before it refuses it.
 */
export function createTokenFeed(deps: { messaging: Messaging; log: Logger; metrics?: Metrics }): SdkTokens {
  let byHash: Map<string, SdkToken> | undefined;
  // Secrets already hashed: SDKs send the same few tokens on every request.
  const bySecret = new Map<string, SdkToken | null>();
  const unknownUntil = new Map<string, number>();
  const lookups = new Map<string, Promise<SdkToken | null>>();
  let revision = 0;
  // Those waiting for the next revision (a token made a moment ago, still on its way through the outbox).
  const waitingForNext = new Set<() => void>();
  const nextRevision = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waitingForNext.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waitingForNext.add(done);
    });

  const install = (tokens: readonly SdkToken[]) => {
    byHash = new Map(tokens.map((token) => [token.hash, token]));
    bySecret.clear();
    for (const wake of [...waitingForNext]) wake();
  };

  const reader = readFeed({
    messaging: deps.messaging,
    scope: 'tokens',
    log: deps.log.child({ feed: 'tokens' }),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    current: () => revision,
    deltaSchema: TokenFeedDelta,
    onWhole: (body, at) => {
      install(TokenFeedBody.parse(body).tokens);
      revision = at;
    },
    onDelta: (delta) => {
      const next = new Map(byHash);
      for (const event of delta.events) {
        if (event.type === 'token-updated') next.set(event.token.hash, event.token);
        else next.delete(event.hash);
      }
      install([...next.values()]);
      revision = delta.revision;
    },
  });

  function find(secret: string): SdkToken | null | undefined {
    if (!byHash) return undefined;
    let token = bySecret.get(secret);
    if (token === undefined) {
      token = byHash.get(hashSecret(secret)) ?? null;
      if (bySecret.size > 10_000) bySecret.clear();
      bySecret.set(secret, token);
    }
    if (token && token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now()) return null;
    return token;
  }

  return {
    find,
    lookup(secret) {
      const hash = hashSecret(secret);
      if ((unknownUntil.get(hash) ?? 0) > Date.now()) return Promise.resolve(null);
      let pending = lookups.get(hash);
      if (!pending) {
        pending = reader
          .caughtUp(CATCH_UP_MS)
          .then(
            async (asked) => {
              bySecret.delete(secret);
              if (!find(secret) && asked) {
                // The admin call that made it may have returned a moment before the feed carried it.
                await nextRevision(NEXT_REVISION_MS);
                bySecret.delete(secret);
              }
              const token = find(secret) ?? null;
              // Unknown is remembered only when the feed could be asked: a stream without a quorum proves nothing.
              if (!token && asked) {
                if (unknownUntil.size > 10_000) unknownUntil.delete(unknownUntil.keys().next().value!);
                unknownUntil.set(hash, Date.now() + UNKNOWN_FOR_MS);
              }
              return token;
            },
            () => null,
          )
          .finally(() => lookups.delete(hash));
        lookups.set(hash, pending);
      }
      return pending;
    },
    loaded: () => byHash !== undefined,
    stop: () => void reader.stop(),
  };
}
