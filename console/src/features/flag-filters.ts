import type { FlagSearchQuery } from '../feature-state/flag-queries.ts';

/** The flags table's state, kept in the address so a filtered view can be bookmarked, shared and gone back to. */
export type FlagFilters = {
  query: string;
  types: string[];
  tags: string[];
  state: '' | 'active' | 'stale';
  status: string; // `<environment>:enabled` or `<environment>:disabled`
  archived: boolean;
  sortBy: 'name' | 'createdAt' | 'type' | 'lastSeenAt';
  sortOrder: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

export const PAGE_SIZES = [25, 50, 100] as const;
/** As in Unleash: a page a person reads without scrolling far, and the table draws quickly. */
export const DEFAULT_PAGE_SIZE = 25;
const SORTS = new Set(['name', 'createdAt', 'type', 'lastSeenAt']);
const list = (value: string | null) => (value ? value.split(',').filter((item) => item.length > 0) : []);

export function readFilters(params: URLSearchParams): FlagFilters {
  const sortBy = params.get('sort') ?? 'createdAt';
  const size = Number(params.get('size'));
  const page = Number(params.get('page'));
  const state = params.get('state');
  return {
    query: params.get('q') ?? '',
    types: list(params.get('type')),
    tags: list(params.get('tag')),
    state: state === 'active' || state === 'stale' ? state : '',
    status: params.get('status') ?? '',
    archived: params.get('archived') === 'true',
    sortBy: SORTS.has(sortBy) ? (sortBy as FlagFilters['sortBy']) : 'createdAt',
    sortOrder:
      params.get('order') === 'asc'
        ? 'asc'
        : params.get('order') === 'desc'
          ? 'desc'
          : sortBy === 'name'
            ? 'asc'
            : 'desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** The address's parameters for a state: only what differs from the defaults. */
export function writeFilters(filters: FlagFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.query) params.set('q', filters.query);
  if (filters.types.length > 0) params.set('type', filters.types.join(','));
  if (filters.tags.length > 0) params.set('tag', filters.tags.join(','));
  if (filters.state) params.set('state', filters.state);
  if (filters.status) params.set('status', filters.status);
  if (filters.archived) params.set('archived', 'true');
  if (filters.sortBy !== 'createdAt') params.set('sort', filters.sortBy);
  const defaultOrder = filters.sortBy === 'name' ? 'asc' : 'desc';
  if (filters.sortOrder !== defaultOrder) params.set('order', filters.sortOrder);
  if (filters.page > 1) params.set('page', String(filters.page));
  if (filters.pageSize !== DEFAULT_PAGE_SIZE) params.set('size', String(filters.pageSize));
  return params;
}

/** The feature search API's query (Unleash's OPERATOR:value grammar) for a project's table. */
export function searchQuery(project: string, filters: FlagFilters): FlagSearchQuery {
  return {
    project: `IS:${project}`,
    ...(filters.query.trim() ? { query: filters.query.trim() } : {}),
    ...(filters.types.length > 0 ? { type: `IS_ANY_OF:${filters.types.join(',')}` } : {}),
    ...(filters.tags.length > 0 ? { tag: `INCLUDE_ANY_OF:${filters.tags.join(',')}` } : {}),
    ...(filters.state ? { state: `IS:${filters.state}` } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.archived ? { archived: 'IS:true' as const } : {}),
    sortBy: filters.sortBy,
    sortOrder: filters.sortOrder,
    limit: filters.pageSize,
    offset: (filters.page - 1) * filters.pageSize,
  };
}
