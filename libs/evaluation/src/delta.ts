import type { ClientFeature, ClientSegment } from '@bunting/contracts';

export type DeltaEvent =
  | { type: 'hydration'; eventId: number; features: ClientFeature[]; segments?: ClientSegment[] }
  | { type: 'feature-updated'; eventId: number; feature: ClientFeature }
  | { type: 'feature-removed'; eventId: number; featureName: string; project?: string }
  | { type: 'segment-updated'; eventId: number; segment: ClientSegment }
  | { type: 'segment-removed'; eventId: number; segmentId: number };

/** Applies Unleash delta-API events in order to a configuration, as SDKs that use the delta API do. */
export function applyDelta(
  events: readonly DeltaEvent[],
  start: { features: ClientFeature[]; segments: ClientSegment[] } = { features: [], segments: [] },
) {
  const features = new Map(start.features.map((feature) => [feature.name, feature]));
  const segments = new Map(start.segments.map((segment) => [segment.id, segment]));
  for (const event of events) {
    switch (event.type) {
      case 'hydration':
        features.clear();
        segments.clear();
        for (const feature of event.features) features.set(feature.name, feature);
        for (const segment of event.segments ?? []) segments.set(segment.id, segment);
        break;
      case 'feature-updated':
        features.set(event.feature.name, event.feature);
        break;
      case 'feature-removed':
        features.delete(event.featureName);
        break;
      case 'segment-updated':
        segments.set(event.segment.id, event.segment);
        break;
      case 'segment-removed':
        segments.delete(event.segmentId);
        break;
    }
  }
  return { features: [...features.values()], segments: [...segments.values()] };
}
