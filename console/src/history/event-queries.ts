import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { EventSearchResult } from '@bunting/contracts';
import { get } from '../api/http.ts';
import { flagKeys } from '../api/keys.ts';

export const EVENTS_PER_PAGE = 25;

/** One page of the event log, newest first, with Unleash's search filters (`IS:`, `IS_ANY_OF:`). */
export function useEventPage(filters: Record<string, string>, page: number, flag?: string) {
  const query = new URLSearchParams({ ...filters, limit: String(EVENTS_PER_PAGE), offset: String((page - 1) * EVENTS_PER_PAGE) });
  return useQuery({
    queryKey: flag ? [...flagKeys.history(flag), query.toString()] : ['events', query.toString()],
    queryFn: ({ signal }) => get<EventSearchResult>(`/api/admin/search/events?${query}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

/** The event log from the newest, a page at a time as the reader scrolls, with Unleash's search filters. */
export function useEventLog(filters: Record<string, string>) {
  const base = new URLSearchParams({ ...filters, limit: String(EVENTS_PER_PAGE) }).toString();
  return useInfiniteQuery({
    queryKey: ['events', 'log', base],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => get<EventSearchResult>(`/api/admin/search/events?${base}&offset=${pageParam}`, signal),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.events.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
}
