import { FEATURE_SEARCH_OPERATORS, type FeatureSearchQuery, type FeatureSearchResult } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { featureFavoriteService } from '../favorites/feature-favorite-service.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import type { FeatureRow } from '../feature-state/feature-lookup.ts';
import { featureRows } from '../feature-state/feature-rows.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { segmentReadModel } from '../segments/segment-read-model.ts';
import { tagReadModel } from '../tags/tag-read-model.ts';
import { loadFeatureViews } from './feature-read-model.ts';

const { listOperator, includeOperator, dateOperator } = FEATURE_SEARCH_OPERATORS;

function values(text: string): string[] {
  return text
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
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

/** What a flag is sorted and filtered by beyond its own row, loaded only when a filter or the sort needs it. */
type Extras = {
  tags: Set<string>;
  segments: Set<string>;
  favorite: boolean;
  lastSeenAt: string | null;
  enabled: Map<string, boolean>;
};

function sortValue(row: FeatureRow, extras: Extras, sortBy: string): string | number | boolean {
  switch (sortBy) {
    case 'type':
      return row.type;
    case 'createdAt':
      return row.createdAt;
    case 'lastSeenAt':
      return extras.lastSeenAt ?? '';
    case 'project':
      return row.project;
    case 'stale':
      return row.stale;
    default:
      return row.name;
  }
}

/** `IS:web`: the one project a filter names, so only its flags are read. */
function singleProject(filter: string | undefined): string | null {
  const match = filter?.match(listOperator);
  return match && match[1] === 'IS' && !match[2]!.includes(',') ? match[2]!.trim() : null;
}

/**
 * Flags matching every filter given, sorted and paged, with the total before paging. The filters that read only
 * a flag's own row go first; tags, segments, states and favourites are read for what is left, and only when a
 * filter or the sort asks for them; the full view is built for the page alone (a project of 5,000 flags answers
 * in tens of milliseconds).
 */
export async function searchFeatures(
  db: Queryable,
  principalKey: string,
  query: FeatureSearchQuery,
): Promise<FeatureSearchResult> {
  const archived = query.archived === 'IS:true';
  const onlyProject = singleProject(query.project);
  const rows =
    onlyProject !== null
      ? await featureRows.listByProject(db, onlyProject, archived)
      : archived
        ? await featureRows.listArchived(db)
        : await featureRows.listActive(db);

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
  const statuses = (Array.isArray(query.status) ? query.status : query.status ? [query.status] : []).map((entry) =>
    entry.split(':'),
  );
  const sortBy = query.sortBy ?? 'createdAt';

  const candidates = rows.filter(
    (row) =>
      (!project || project(row.project)) &&
      (!type || type(row.type)) &&
      (!state || state(row.stale ? 'stale' : 'active')) &&
      (!lifecycle || lifecycle(row.lifecycleStage)) &&
      (!createdBy || createdBy(String(row.createdByUserId ?? ''))) &&
      (!createdAt || createdAt(row.createdAt)),
  );
  const names = candidates.map((row) => row.name);

  const needsTags = terms.length > 0 || tag !== null;
  const needsStates = statuses.length > 0 || lastSeenAt !== null || sortBy === 'lastSeenAt';
  const needsFavorites = favorite !== null || query.favoritesFirst === 'true';
  const [tags, segmentsOf, states, favorites, projectEnvironments] = await Promise.all([
    needsTags && names.length > 0 ? tagReadModel.forFeatures(db, names) : Promise.resolve([]),
    segmentReadModel.namesByFeature(db),
    needsStates && names.length > 0 ? environmentState.listFor(db, names) : Promise.resolve([]),
    needsFavorites && names.length > 0
      ? featureFavoriteService.favoritesAmong(db, principalKey, names)
      : Promise.resolve([] as readonly string[]),
    statuses.length > 0
      ? projectReadModel.environmentsOf(db, [...new Set(candidates.map((row) => row.project))])
      : Promise.resolve([]),
  ]);
  const inProject = new Set(projectEnvironments.map((row) => `${row.project}\u0000${row.name}`));
  const extras = new Map<string, Extras>(
    names.map((name) => [
      name,
      {
        tags: new Set(),
        segments: segmentsOf.get(name) ?? new Set(),
        favorite: false,
        lastSeenAt: null,
        enabled: new Map(),
      },
    ]),
  );
  for (const row of tags) extras.get(row.featureName)?.tags.add(`${row.type}:${row.value}`);
  for (const name of favorites) extras.get(name)!.favorite = true;
  for (const row of states) {
    const entry = extras.get(row.featureName)!;
    entry.enabled.set(row.environment, row.enabled);
    if (row.lastSeenAt !== null && (entry.lastSeenAt === null || row.lastSeenAt > entry.lastSeenAt))
      entry.lastSeenAt = row.lastSeenAt;
  }

  const matching = candidates.filter((row) => {
    const flag = extras.get(row.name)!;
    if (terms.length > 0) {
      const haystack = [row.name, row.description ?? '', ...flag.tags, ...flag.segments].join('\n').toLowerCase();
      if (!terms.some((term) => haystack.includes(term))) return false;
    }
    if (tag && !tag(flag.tags)) return false;
    if (segment && !segment(flag.segments)) return false;
    if (lastSeenAt && !lastSeenAt(flag.lastSeenAt)) return false;
    if (favorite && !favorite.has(String(flag.favorite))) return false;
    // A flag is on or off only in its project's environments; with no row for one it is off there.
    if (
      statuses.length > 0 &&
      !statuses.some(
        ([environment, status]) =>
          inProject.has(`${row.project}\u0000${environment}`) &&
          (status === 'enabled') === (flag.enabled.get(environment!) ?? false),
      )
    )
      return false;
    return true;
  });

  const direction = query.sortOrder === 'desc' ? -1 : 1;
  matching.sort((a, b) => {
    const left = extras.get(a.name)!;
    const right = extras.get(b.name)!;
    if (query.favoritesFirst === 'true' && left.favorite !== right.favorite) return left.favorite ? -1 : 1;
    const x = sortValue(a, left, sortBy);
    const y = sortValue(b, right, sortBy);
    return (x < y ? -1 : x > y ? 1 : a.name.localeCompare(b.name)) * direction;
  });
  const offset = query.offset ?? 0;
  const page = await loadFeatureViews(db, matching.slice(offset, offset + (query.limit ?? 50)), principalKey);
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
      environments: feature.environments.map(
        ({ strategies: _strategies, variants: _variants, ...environment }) => environment,
      ),
      segments: [...(segmentsOf.get(feature.name) ?? [])].sort(),
      tags: feature.tags,
    })),
  };
}
