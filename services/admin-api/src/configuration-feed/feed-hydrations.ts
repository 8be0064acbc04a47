import type { FeedScope, NatsNames } from '@bunting/contracts';
import {
  lastMessageOn,
  repeatEvery,
  type DatabasePool,
  type Logger,
  type Messaging,
  type Outbox,
} from '@bunting/platform';
import { recordKeeping } from '../events/write-tx.ts';
import { TOKENS_SCOPE, environmentBody, environmentScope, tokensBody } from './configuration-feed.ts';
import { hydrationMessages } from './feed-messages.ts';
import { feedStore } from './feed-store.ts';

/** Revisions since the last hydration after which a replica catching up would read too many deltas. */
const DELTAS_BETWEEN_HYDRATIONS = 1000;

/**
 * Keeps every scope of the configuration feed readable from the stream alone: a scope with no hydration yet (a fresh
 * install, an environment never changed) gets one, and so does one whose last hydration is older than `refreshAfterMs`
 * (the stream keeps messages twice that long) or that many revisions behind, and one whose stream holds no
 * hydration although the database says it was written (a database restored beside new NATS volumes, a stream
 * deleted). Run by every admin-api replica; a second writer of the same hydration writes what the first did, which
 * costs only bytes.
 */
export function startFeedHydrations(
  deps: { db: DatabasePool; outbox: Outbox; messaging: Messaging; log: Logger },
  options: { intervalMs: number; refreshAfterMs: number },
) {
  const names: NatsNames = deps.messaging.names;
  const feedScopeOf = (scope: string): FeedScope =>
    scope === TOKENS_SCOPE ? 'tokens' : { environment: scope.slice('env:'.length) };

  /** Whether the stream holds a hydration of the scope (the relay may still hold the newest in the outbox). */
  async function inStream(scope: string): Promise<boolean> {
    return (await lastMessageOn(deps.messaging, names.feedStream, names.feed(feedScopeOf(scope)).hydration)) !== null;
  }

  async function hydrate(scope: string) {
    await recordKeeping(deps.db, async (tx) => {
      const locked = await feedStore.lockRevision(tx, scope);
      // A scope never written starts at its first revision, announced on its delta subject like any other.
      const revision = locked ?? (await feedStore.bump(tx, [scope])).get(scope)!;
      const body =
        scope === TOKENS_SCOPE ? await tokensBody(tx) : await environmentBody(tx, scope.slice('env:'.length));
      await deps.outbox.add(tx, hydrationMessages(names, feedScopeOf(scope), revision, body, locked === null));
      await feedStore.markHydrated(tx, scope, revision);
    });
  }

  async function pass() {
    const known = new Map((await feedStore.all(deps.db)).map((row) => [row.scope, row]));
    const scopes = [TOKENS_SCOPE, ...(await feedStore.environments(deps.db)).map(environmentScope)];
    for (const scope of scopes) {
      const row = known.get(scope);
      const due =
        !row ||
        row.hydratedAt === null ||
        Date.now() - Date.parse(row.hydratedAt) > options.refreshAfterMs ||
        row.revision - row.hydratedRevision > DELTAS_BETWEEN_HYDRATIONS ||
        !(await inStream(scope));
      if (due) await hydrate(scope);
    }
  }

  return repeatEvery(pass, options.intervalMs, { log: deps.log, what: "writing the configuration feed's hydrations" });
}
