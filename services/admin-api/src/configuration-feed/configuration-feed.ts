import { reachOf, type FeedEvent, type NatsNames } from '@bunting/contracts';
import type { OutboxMessage } from '@bunting/platform';
import type { EventDraft } from '../events/changes.ts';
import type { WriteTx } from '../events/write-tx.ts';
import { apiTokenReadModel } from '../api-tokens/api-token-read-model.ts';
import { loadEnvironmentSnapshot } from './environment-snapshot.ts';
import { DELTA_LIMIT_BYTES, deltaMessage, hydrationMessages } from './feed-messages.ts';
import { feedStore } from './feed-store.ts';

export const environmentScope = (environment: string) => `env:${environment}`;
export const TOKENS_SCOPE = 'tokens';

/** What a change means for one environment's feed: the flags and segments to write again, or all of it. */
type Reached = { whole: boolean; flags: Map<string, string>; segments: Set<number> };

/** The environments a change's events reach, from the one reach module, and what of each they touch. */
async function reachedEnvironments(tx: WriteTx, drafts: readonly EventDraft[]): Promise<Map<string, Reached>> {
  const reached = new Map<string, Reached>();
  const at = (environment: string) =>
    reached.get(environment) ??
    reached.set(environment, { whole: false, flags: new Map(), segments: new Set() }).get(environment)!;
  let everyEnvironment: readonly string[] | undefined;
  const all = async () => (everyEnvironment ??= await feedStore.environments(tx));
  for (const draft of drafts) {
    const reach = reachOf(draft);
    const places = reach.places;
    const touch = (environment: string) => {
      const entry = at(environment);
      if (places.kind === 'segment') entry.segments.add(places.segmentId);
      else if (reach.flag !== null) entry.flags.set(reach.flag, draft.project ?? '');
      else entry.whole = true;
    };
    switch (places.kind) {
      case 'none':
        break;
      case 'environment':
      case 'environment-everywhere':
        touch(places.environment);
        break;
      case 'projects':
        for (const environment of await feedStore.environmentsOf(tx, places.projects)) touch(environment);
        break;
      case 'segment':
        // Every environment's configuration carries every segment.
        for (const environment of await all()) touch(environment);
        break;
      case 'everything':
        for (const environment of await all()) at(environment).whole = true;
        break;
    }
  }
  return reached;
}

/** The delta events that bring an environment's feed to what its named flags and segments are now. */
async function changedEvents(tx: WriteTx, environment: string, reached: Reached): Promise<FeedEvent[]> {
  const names = [...reached.flags.keys()];
  const now = await loadEnvironmentSnapshot(tx, environment, names);
  const present = new Map(now.features.map((feature) => [feature.name, feature]));
  const segments = new Map(now.segments.map((segment) => [segment.id, segment]));
  const events: FeedEvent[] = [];
  for (const name of names) {
    const feature = present.get(name);
    events.push(
      feature
        ? { type: 'feature-updated', feature }
        : { type: 'feature-removed', featureName: name, project: reached.flags.get(name)! },
    );
  }
  for (const id of reached.segments) {
    const segment = segments.get(id);
    events.push(segment ? { type: 'segment-updated', segment } : { type: 'segment-removed', segmentId: id });
  }
  return events;
}

/** An environment whole, as a hydration carries it. */
export async function environmentBody(tx: WriteTx, environment: string) {
  const snapshot = await loadEnvironmentSnapshot(tx, environment);
  return { features: snapshot.features, segments: snapshot.segments };
}

export const tokensBody = async (tx: WriteTx) => ({ tokens: await apiTokenReadModel.sdkTokens(tx) });

/**
 * The configuration feed's part of a change, written in its transaction after the change-request gate: for each
 * environment the change reaches, the next revision with the flags and segments it changed (or, for a change of
 * everything there or too large a delta, the environment whole), and for a change of API tokens the next revision
 * of the token set. What reaches no environment (access, users, settings) writes nothing.
 */
export function configurationFeed(names: NatsNames) {
  return async (tx: WriteTx, drafts: readonly EventDraft[]): Promise<OutboxMessage[]> => {
    const reached = await reachedEnvironments(tx, drafts);
    const tokens = drafts.some((draft) => draft.type.startsWith('api-token-'));
    if (reached.size === 0 && !tokens) return [];
    const scopes = [...[...reached.keys()].map(environmentScope), ...(tokens ? [TOKENS_SCOPE] : [])];
    const revisions = await feedStore.bump(tx, scopes);
    const messages: OutboxMessage[] = [];
    for (const [environment, touched] of [...reached].sort(([a], [b]) => a.localeCompare(b))) {
      const scope = { environment };
      const revision = revisions.get(environmentScope(environment))!;
      const events = touched.whole ? undefined : await changedEvents(tx, environment, touched);
      const delta = events && deltaMessage(names, scope, revision, events);
      if (delta && JSON.stringify(delta.payload).length <= DELTA_LIMIT_BYTES) {
        messages.push(delta);
        continue;
      }
      messages.push(...hydrationMessages(names, scope, revision, await environmentBody(tx, environment), true));
      await feedStore.markHydrated(tx, environmentScope(environment), revision);
    }
    if (tokens) {
      // Token changes are rare and the set small: each revision of it is written whole.
      const revision = revisions.get(TOKENS_SCOPE)!;
      messages.push(...hydrationMessages(names, 'tokens', revision, await tokensBody(tx), true));
      await feedStore.markHydrated(tx, TOKENS_SCOPE, revision);
    }
    return messages;
  };
}
