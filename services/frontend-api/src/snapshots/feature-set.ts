import type {
  ClientFeature,
  ClientFeatures,
  ClientSegment,
  DeltaEvent,
  EnvironmentSnapshot,
  FeedEvent,
} from '@bunting/contracts';

export type SnapshotFeature = EnvironmentSnapshot['features'][number];

/** What one upstream scope (an environment and a token's projects) holds: its flags by name, its segments by id. */
export type FeatureSet = {
  readonly features: ReadonlyMap<string, SnapshotFeature>;
  readonly segments: ReadonlyMap<number, ClientSegment>;
};

/** A flag as the snapshot keeps it: every flag has a project (servers before Unleash 4 sent none: "default"). */
function asSnapshotFeature(feature: ClientFeature): SnapshotFeature {
  return { ...feature, project: feature.project ?? 'default' };
}

/** A set while it is being made: once handed on, nothing changes it (the snapshots keep its map of flags). */
type SetInTheMaking = { features: Map<string, SnapshotFeature>; segments: Map<number, ClientSegment> };

function newSet(payload: Pick<ClientFeatures, 'features' | 'segments'>): SetInTheMaking {
  return {
    features: new Map(payload.features.map((feature) => [feature.name, asSnapshotFeature(feature)])),
    segments: new Map((payload.segments ?? []).map((segment) => [segment.id, segment])),
  };
}

export function featureSetOf(payload: Pick<ClientFeatures, 'features' | 'segments'>): FeatureSet {
  return newSet(payload);
}

/** Delta events applied in order to a copy of `set` (a hydration starts it anew); `set` itself is left as it was. */
export function applyDelta(set: FeatureSet | undefined, events: readonly DeltaEvent[]): FeatureSet | undefined {
  let next: SetInTheMaking | undefined = set && { features: new Map(set.features), segments: new Map(set.segments) };
  for (const event of events) {
    if (event.type === 'hydration') {
      next = newSet(event);
      continue;
    }
    // Changes before any hydration cannot be applied to anything: the caller asks for everything again.
    if (!next) return undefined;
    if (event.type === 'feature-updated') next.features.set(event.feature.name, asSnapshotFeature(event.feature));
    else if (event.type === 'feature-removed') next.features.delete(event.featureName);
    else if (event.type === 'segment-updated') next.segments.set(event.segment.id, event.segment);
    else next.segments.delete(event.segmentId);
  }
  return next;
}

/**
 * One environment's snapshot from the sets of every scope followed in it: a flag is taken from the set updated last
 * that holds it (sets of overlapping scopes agree once both are current), and so is a segment. `byName` is the
 * snapshot's flags by name; with one set it is that set's own map (sets are never changed once made), not a copy.
 */
export function mergeSets(
  environment: string,
  sets: readonly { set: FeatureSet; updatedAt: number }[],
): { snapshot: EnvironmentSnapshot; byName: ReadonlyMap<string, SnapshotFeature> } {
  let { features, segments }: FeatureSet = sets[0]?.set ?? { features: new Map(), segments: new Map() };
  if (sets.length > 1) {
    const merged: SetInTheMaking = { features: new Map(), segments: new Map() };
    for (const { set } of [...sets].sort((a, b) => a.updatedAt - b.updatedAt)) {
      for (const [name, feature] of set.features) merged.features.set(name, feature);
      for (const [id, segment] of set.segments) merged.segments.set(id, segment);
    }
    ({ features, segments } = merged);
  }
  return {
    snapshot: { environment, features: [...features.values()], segments: [...segments.values()] },
    byName: features,
  };
}

/** One server-sent event as the upstream's stream sends it. */
export type SseEvent = { event: string; id: string | undefined; data: string };

/**
 * Cuts a server-sent event stream into events as its text arrives: give each piece of text, get the events it
 * completed. A comment line (":") or a field it does not know is skipped, as the EventSource rules say.
 */
export function createSseParser() {
  let buffer = '';
  return (text: string): SseEvent[] => {
    buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r?\n\r?\n/.exec(buffer);
      if (!match) break;
      const block = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) events.push({ event, id, data: data.join('\n') });
    }
    return events;
  };
}

/** The flags delta events change (updated or removed), in order: of a stream's delta or of the cluster's feed. */
export function flagNamesOf(events: readonly (DeltaEvent | FeedEvent)[]): string[] {
  const names: string[] = [];
  for (const event of events) {
    if (event.type === 'feature-updated') names.push(event.feature.name);
    else if (event.type === 'feature-removed') names.push(event.featureName);
  }
  return names;
}

/** `next`'s segments, each as `previous` held it where it is the same. */
function keptSegments(previous: FeatureSet, next: FeatureSet): Map<number, ClientSegment> {
  const segments = new Map<number, ClientSegment>();
  for (const [id, segment] of next.segments) {
    const held = previous.segments.get(id);
    segments.set(id, held && JSON.stringify(held) === JSON.stringify(segment) ? held : segment);
  }
  return segments;
}

/**
 * `next` with the flag and segment objects of `previous` wherever they are the same: what was compiled for a flag is
 * lent to the next revision by object, so an upstream answer that changed one of 10,000 flags compiles one.
 */
export function keepUnchanged(previous: FeatureSet | undefined, next: FeatureSet): FeatureSet {
  if (!previous) return next;
  const features = new Map<string, SnapshotFeature>();
  for (const [name, feature] of next.features) {
    const held = previous.features.get(name);
    features.set(name, held && JSON.stringify(held) === JSON.stringify(feature) ? held : feature);
  }
  return { features, segments: keptSegments(previous, next) };
}
