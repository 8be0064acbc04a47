import { FeedDelta, FeedHydrationBody, type FeedEvent } from '@bunting/contracts';
import type { Logger, Messaging, Metrics } from '@bunting/platform';
import type { EnvironmentSnapshots } from '../snapshots/environment-snapshots.ts';
import { applyDelta, featureSetOf, flagNamesOf, keepUnchanged, type FeatureSet } from '../snapshots/feature-set.ts';
import { readFeed, type FeedReader } from './feed-reader.ts';

/** The one source of a cluster edge's environments: admin-api's configuration feed. */
const SOURCE = 'feed';

/** Flags in byte order of their names, as admin-api writes an environment whole. */
function inNameOrder(set: FeatureSet): FeatureSet {
  return {
    features: new Map([...set.features].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    segments: set.segments,
  };
}

/** The names a delta changes, and whether it brings a flag the set did not hold. */
function namesOf(set: FeatureSet, events: readonly FeedEvent[]) {
  return {
    names: flagNamesOf(events),
    added: events.some((event) => event.type === 'feature-updated' && !set.features.has(event.feature.name)),
  };
}

/**
 * Follows each environment a request asked for on the configuration feed (from the stream alone: its last
 * hydration, then its deltas) into the edge's snapshots, at admin-api's revisions, so every replica names a revision
 * alike. A delta keeps the objects of the flags it did not change, so compiling it compiles those it did.
 */
export function followEnvironments(deps: {
  messaging: Messaging;
  log: Logger;
  metrics?: Metrics;
  snapshots: Pick<EnvironmentSnapshots, 'put'>;
}) {
  const readers = new Map<string, FeedReader>();

  function follow(environment: string) {
    if (readers.has(environment)) return;
    let set: FeatureSet | undefined;
    let revision = 0;
    readers.set(
      environment,
      readFeed({
        messaging: deps.messaging,
        scope: { environment },
        log: deps.log.child({ feed: environment }),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        current: () => revision,
        deltaSchema: FeedDelta,
        onWhole: (body, at) => {
          set = keepUnchanged(set, featureSetOf(FeedHydrationBody.parse(body)));
          revision = at;
          deps.snapshots.put(environment, SOURCE, set, { revision, how: 'whole' });
        },
        onDelta: (delta) => {
          const { names, added } = namesOf(set!, delta.events);
          const next = applyDelta(
            set,
            delta.events.map((event) => ({ ...event, eventId: delta.revision })),
          )!;
          set = added ? inNameOrder(next) : next;
          revision = delta.revision;
          deps.snapshots.put(environment, SOURCE, set, { revision, how: 'delta', changed: names });
        },
      }),
    );
  }

  return {
    /**
     * Starts following an environment (once), and resolves once it read what the feed held then (at most `ms`):
     * false when the feed's stream cannot be asked now.
     */
    async request(environment: string, ms: number): Promise<boolean> {
      follow(environment);
      return readers.get(environment)!.caughtUp(ms);
    },
    async stop() {
      await Promise.all([...readers.values()].map((reader) => reader.stop()));
    },
  };
}
