import type { ClientFeature, ClientSegment, ClientStrategy } from '@bunting/contracts';
import { shortHash, type CompiledEnvironment } from '../snapshots/compiled-environment.ts';

export type ClientQuery = {
  projects: readonly string[];
  /** Segments sent once with ids on strategies (SDKs of client spec 4.3.0+), or inlined as constraints. */
  inlineSegments: boolean;
  namePrefix?: string | undefined;
  /** Only flags with one of these tags ("type:value"). */
  tags?: readonly string[] | undefined;
};

export function queryKey(query: ClientQuery): string {
  return `${[...query.projects].sort().join(',')}|${query.inlineSegments}|${query.namePrefix ?? ''}|${[...(query.tags ?? [])].sort().join(',')}`;
}

/** The ETag of an answer: which query, which revision. Computing it needs no serialisation. */
export function clientEtag(environment: CompiledEnvironment, query: ClientQuery): string {
  return `"${shortHash(queryKey(query))}:${environment.revision}:v1"`;
}

function clientStrategy(
  strategy: ClientStrategy,
  segments: ReadonlyMap<number, ClientSegment>,
  inline: boolean,
): ClientStrategy {
  const { title: _title, disabled: _disabled, segments: ids, ...rest } = strategy;
  if (!inline) return { ...rest, segments: ids ?? [] };
  const inlined = (ids ?? []).flatMap((id) => segments.get(id)?.constraints ?? []);
  return { ...rest, constraints: [...(strategy.constraints ?? []), ...inlined] };
}

/** The /api/client/features body for a query, built once per revision and query and then reused. */
export function clientBody(environment: CompiledEnvironment, query: ClientQuery, etag: string): Buffer {
  const key = queryKey(query);
  const cached = environment.clientBodies.get(key);
  if (cached !== undefined) return cached;
  const features = selectFeatures(environment, query);
  const segmentsById = new Map(environment.snapshot.segments.map((segment) => [segment.id, segment]));
  const payload: Record<string, unknown> = {
    version: 2,
    features: features.map((feature) => clientFeature(feature, segmentsById, query.inlineSegments)),
  };
  if (!query.inlineSegments) {
    const used = new Set(
      features.flatMap((feature) => (feature.strategies ?? []).flatMap((strategy) => strategy.segments ?? [])),
    );
    payload.segments = environment.snapshot.segments.filter((segment) => used.has(segment.id));
  }
  payload.query = {
    environment: environment.environment,
    inlineSegmentConstraints: query.inlineSegments,
    ...(query.projects.includes('*') ? {} : { project: query.projects }),
    ...(query.namePrefix ? { namePrefix: query.namePrefix } : {}),
    ...(query.tags && query.tags.length > 0 ? { tag: [...query.tags] } : {}),
  };
  payload.meta = { revisionId: environment.revision, etag, queryHash: shortHash(key) };
  const body = Buffer.from(JSON.stringify(payload));
  environment.clientBodies.set(key, body);
  return body;
}

export function selectFeatures(environment: CompiledEnvironment, query: ClientQuery): ClientFeature[] {
  // The environment's own definitions (a compiled flag may be lent by another environment: its strategy ids differ).
  const allowed = query.projects.includes('*') ? null : new Set(query.projects);
  let selected = (environment.snapshot.features as TaggedFeature[]).filter(
    (feature) => allowed === null || allowed.has(feature.project ?? ''),
  );
  if (query.namePrefix) selected = selected.filter((feature) => feature.name.startsWith(query.namePrefix!));
  if (query.tags && query.tags.length > 0) {
    const wanted = new Set(query.tags);
    selected = selected.filter((feature) => (feature.tags ?? []).some((tag) => wanted.has(`${tag.type}:${tag.value}`)));
  }
  return selected;
}

type TaggedFeature = ClientFeature & { tags?: { type: string; value: string }[] };

export function clientFeature(
  feature: ClientFeature,
  segments: ReadonlyMap<number, ClientSegment>,
  inline: boolean,
): ClientFeature {
  const { tags: _tags, ...rest } = feature as TaggedFeature;
  return {
    ...rest,
    strategies: (feature.strategies ?? []).map((strategy) => clientStrategy(strategy, segments, inline)),
    variants: feature.variants ?? [],
  };
}
