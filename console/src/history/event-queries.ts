import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { endpointKey, endpointQuery, type ParamsOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';

export const EVENTS_PER_PAGE = 25;

/** Unleash's event search filters (`IS:`, `IS_ANY_OF:`), as the API takes them. */
export type EventFilters = Omit<NonNullable<ParamsOf<'/api/admin/search/events'>['query']>, 'limit' | 'offset'>;

/** One page of the event log, newest first. */
export function useEventPage(filters: EventFilters, page: number) {
  return useQuery({
    ...endpointQuery('/api/admin/search/events', {
      query: { ...filters, limit: EVENTS_PER_PAGE, offset: (page - 1) * EVENTS_PER_PAGE },
    }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

/** The event log from the newest, a page at a time as the reader scrolls. */
export function useEventLog(filters: EventFilters) {
  return useInfiniteQuery({
    // The endpoint's key with the filters, marked as pages: invalidating the endpoint refreshes it too.
    queryKey: [...endpointKey('/api/admin/search/events', { query: filters }), 'pages'],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      answer(
        api.GET('/api/admin/search/events', {
          params: { query: { ...filters, limit: EVENTS_PER_PAGE, offset: pageParam } },
          signal,
        }),
      ),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.events.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
}
