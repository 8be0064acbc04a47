import type { ClientFeature, DeltaEvent } from '@bunting/contracts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import type { ChangesSince } from '../snapshots/revision-changes.ts';
import { clientFeature, selectFeatures, type ClientQuery } from './client-payload.ts';

export type { DeltaEvent };

/**
 * Events that bring an SDK holding the changes' starting revision up to `environment`'s, for the flags its token
 * sees; with no changes known, one hydration event with everything. Flags that left the token's view are removed.
 * Delta SDKs take segments by id, never inlined.
 */
export function deltaEvents(
  environment: CompiledEnvironment,
  query: ClientQuery,
  changes: ChangesSince | null,
): DeltaEvent[] {
  const eventId = environment.revision;
  const visible = selectFeatures(environment, { ...query, inlineSegments: false });
  const segments = new Map(environment.snapshot.segments.map((segment) => [segment.id, segment]));
  const asClient = (feature: ClientFeature) => clientFeature(feature, segments, false);
  if (changes === null) {
    return [{ type: 'hydration', eventId, features: visible.map(asClient), segments: environment.snapshot.segments }];
  }
  const events: DeltaEvent[] = [];
  // Segments first, so a flag that starts using a new segment finds it.
  for (const id of changes.segments) {
    const segment = segments.get(id);
    events.push(
      segment ? { type: 'segment-updated', eventId, segment } : { type: 'segment-removed', eventId, segmentId: id },
    );
  }
  const byName = new Map(visible.map((feature) => [feature.name, feature]));
  for (const [name, project] of changes.features) {
    const feature = byName.get(name);
    events.push(
      feature
        ? { type: 'feature-updated', eventId, feature: asClient(feature) }
        : { type: 'feature-removed', eventId, featureName: name, project },
    );
  }
  return events;
}
