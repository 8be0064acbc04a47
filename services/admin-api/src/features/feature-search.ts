import { z } from 'zod';
import { FEATURE_SEARCH_OPERATORS, type Feature, type FeatureSearchQuery } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { loadFeatureViews } from './feature-read-model.ts';
import { featureStore } from './feature-store.ts';

const { listOperator, includeOperator, dateOperator } = FEATURE_SEARCH_OPERATORS;

function values(text: string): string[] {
  return text.split(',').map((value) => value.trim()).filter((value) => value.length > 0);
}

/** A list filter as a test on one value: IS and IS_ANY_OF keep members, IS_NOT and IS_NONE_OF keep the rest. */
function listTest(filter: string | undefined): ((value: string) => boolean) | null {
  if (!filter) return null;
  const [, operator, list] = filter.match(listOperator)!;
  const members = new Set(values(list!));
  return operator === 'IS' || operator === 'IS_ANY_OF' ? (value) => members.has(value) : (value) => !members.has(value);
}

/** An include filter as a test on a set a flag has (its tags "type:value", its segments). */
function includeTest(filter: string | undefined): ((held: ReadonlySet<string>) => boolean) | null {
  if (!filter) return null;
  const [, operator, list] = filter.match(includeOperator)!;
  const wanted = values(list!);
  switch (operator) {
    case 'INCLUDE':
    case 'INCLUDE_ANY_OF':
      return (held) => wanted.some((value) => held.has(value));
    case 'INCLUDE_ALL_OF':
      return (held) => wanted.every((value) => held.has(value));
    case 'EXCLUDE_ALL':
      return (held) => !wanted.every((value) => held.has(value));
    default:
      return (held) => !wanted.some((value) => held.has(value));
  }
}

function dateTest(filter: string | undefined): ((value: string | null) => boolean) | null {
  if (!filter) return null;
  const [, operator, day] = filter.match(dateOperator)!;
  const bound = Date.parse(`${day}T00:00:00Z`);
  return operator === 'IS_BEFORE'
    ? (value) => value !== null && Date.parse(value) < bound
    : (value) => value !== null && Date.parse(value) >= bound;
}

const SegmentUse = z.object({ featureName: z.string(), name: z.string() });

function sortValue(feature: Feature, sortBy: string): string | number | boolean {
  switch (sortBy) {
    case 'type': return feature.type;
    case 'createdAt': return feature.createdAt ?? '';
    case 'lastSeenAt': return feature.lastSeenAt ?? '';
    case 'project': return feature.project;
    case 'stale': return feature.stale;
    default: return feature.name;
  }
}

/** Flags matching every filter given, sorted and paged, with the total before paging. */
export async function searchFeatures(db: Queryable, principalKey: string, query: FeatureSearchQuery) {
  const archived = query.archived === 'IS:true';
  const rows = archived ? await featureStore.listArchived(db) : await featureStore.listActive(db);
  const [views, segmentUses] = await Promise.all([
    loadFeatureViews(db, rows, principalKey),
    db.any(sql.type(SegmentUse)`
      select distinct fs.feature_name as "featureName", s.name from admin.feature_strategy_segments ss
      join admin.feature_strategies fs on fs.id = ss.strategy_id join admin.segments s on s.id = ss.segment_id`),
  ]);
  const segmentsOf = new Map<string, Set<string>>();
  for (const use of segmentUses) segmentsOf.set(use.featureName, (segmentsOf.get(use.featureName) ?? new Set()).add(use.name));

  const terms = values((query.query ?? '').toLowerCase());
  const project = listTest(query.project);
  const type = listTest(query.type);
  const state = listTest(query.state);
  const lifecycle = listTest(query.lifecycle);
  const createdBy = listTest(query.createdBy);
  const tag = includeTest(query.tag);
  const segment = includeTest(query.segment);
  const createdAt = dateTest(query.createdAt);
  const lastSeenAt = dateTest(query.lastSeenAt);
  const favorite = query.favorite ? new Set(values(query.favorite.split(':')[1]!)) : null;
  const statuses = (Array.isArray(query.status) ? query.status : query.status ? [query.status] : []).map((entry) => entry.split(':'));

  const matching = views.filter((feature) => {
    const tags = new Set((feature.tags ?? []).map((t) => `${t.type}:${t.value}`));
    const segments = segmentsOf.get(feature.name) ?? new Set<string>();
    if (terms.length > 0) {
      const haystack = [feature.name, feature.description ?? '', ...tags, ...segments].join('\n').toLowerCase();
      if (!terms.some((term) => haystack.includes(term))) return false;
    }
    if (project && !project(feature.project)) return false;
    if (type && !type(feature.type)) return false;
    if (state && !state(feature.stale ? 'stale' : 'active')) return false;
    if (lifecycle && !lifecycle(feature.lifecycle?.stage ?? 'initial')) return false;
    if (createdBy && !createdBy(String(feature.createdBy?.id ?? ''))) return false;
    if (tag && !tag(tags)) return false;
    if (segment && !segment(segments)) return false;
    if (createdAt && !createdAt(feature.createdAt)) return false;
    if (lastSeenAt && !lastSeenAt(feature.lastSeenAt)) return false;
    if (favorite && !favorite.has(String(feature.favorite))) return false;
    if (statuses.length > 0 && !statuses.some(([environment, status]) =>
      feature.environments.some((e) => e.name === environment && (status === 'enabled') === e.enabled))) return false;
    return true;
  });

  const direction = query.sortOrder === 'desc' ? -1 : 1;
  const sortBy = query.sortBy ?? 'createdAt';
  matching.sort((a, b) => {
    if (query.favoritesFirst === 'true' && a.favorite !== b.favorite) return a.favorite ? -1 : 1;
    const left = sortValue(a, sortBy);
    const right = sortValue(b, sortBy);
    return (left < right ? -1 : left > right ? 1 : a.name.localeCompare(b.name)) * direction;
  });
  const offset = query.offset ?? 0;
  const page = matching.slice(offset, offset + (query.limit ?? 50));
  return {
    total: matching.length,
    features: page.map((feature) => ({
      name: feature.name,
      description: feature.description,
      type: feature.type,
      project: feature.project,
      stale: feature.stale,
      favorite: feature.favorite,
      impressionData: feature.impressionData,
      createdAt: feature.createdAt,
      archivedAt: feature.archivedAt,
      createdBy: feature.createdBy,
      lastSeenAt: feature.lastSeenAt,
      lifecycle: feature.lifecycle,
      dependencyType: feature.children.length > 0 ? 'parent' : feature.dependencies.length > 0 ? 'child' : null,
      environments: feature.environments.map(({ strategies: _strategies, variants: _variants, ...environment }) => environment),
      segments: [...(segmentsOf.get(feature.name) ?? [])].sort(),
      tags: feature.tags,
    })),
  };
}
