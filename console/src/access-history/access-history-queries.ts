import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type ParamsOf } from '../api/endpoint.ts';

export type AccessEntry = AnswerOf<'/api/admin/access-history'>['entries'][number];
export type AccessFilters = Omit<NonNullable<ParamsOf<'/api/admin/access-history'>['query']>, 'limit' | 'offset'>;

export const ACCESS_PER_PAGE = 50;

/** One page of the sign-in history, newest first, kept on screen while the next loads. */
export const useAccessHistory = (filters: AccessFilters, page: number) =>
  useQuery({
    ...endpointQuery('/api/admin/access-history', {
      query: { ...filters, limit: ACCESS_PER_PAGE, offset: (page - 1) * ACCESS_PER_PAGE },
    }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/** The CSV export's address with the same filters: a plain link, so the browser downloads it with the session. */
export function exportAddress(filters: AccessFilters): string {
  const query = new URLSearchParams(
    Object.entries(filters).flatMap(([name, value]) =>
      value === undefined || value === '' ? [] : [[name, String(value)]],
    ),
  );
  const text = query.toString();
  return `/api/admin/access-history/export${text ? `?${text}` : ''}`;
}
