import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery, type ParamsOf, type ReadPath } from '../api/endpoint.ts';
import { useChange } from '../ui/use-change.ts';

/**
 * How often an open flag page asks for the flag again, so a change made elsewhere (another user, a script, an
 * action set) shows within a couple of seconds. The answer carries an ETag, so an unchanged flag costs a 304.
 */
export const LIVE_REFRESH_MS = 2_000;

export const flagQuery = (project: string, name: string) =>
  queryOptions({
    // Archived flags too: their page shows them with their history.
    ...endpointQuery('/api/admin/projects/{projectId}/features/{featureName}', {
      path: { projectId: project, featureName: name },
      query: { archived: 'true' },
    }),
    refetchInterval: LIVE_REFRESH_MS,
  });

export const useFlag = (project: string, name: string) => useQuery(flagQuery(project, name));

export type FlagSearchQuery = NonNullable<ParamsOf<'/api/admin/search/features'>['query']>;

export const flagSearchQuery = (query: FlagSearchQuery) =>
  queryOptions({
    ...endpointQuery('/api/admin/search/features', { query }),
    // The table keeps showing the last page while the next one loads, instead of flashing empty.
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_REFRESH_MS * 5,
  });

export const useFlagSearch = (query: FlagSearchQuery) => useQuery(flagSearchQuery(query));

/** What a change to a flag makes stale: the flag, every list it appears in, its history and the project's lists. */
export const FLAG_ENDPOINTS: readonly ReadPath[] = [
  '/api/admin/projects/{projectId}/features/{featureName}',
  '/api/admin/search/features',
  '/api/admin/search/events',
  '/api/admin/projects/{projectId}',
];

/**
 * A change to a flag: sent, then the flag and every list it appears in asked for again. A failure is shown and
 * thrown back to the form, which keeps what the user typed.
 */
export function useFlagChange<Input>(
  send: (input: Input) => Promise<unknown>,
  saved?: string | ((input: Input) => string),
  mutationKey?: readonly unknown[],
) {
  return useChange<Input, unknown>(send, {
    refresh: FLAG_ENDPOINTS,
    ...(saved ? { done: (_output: unknown, input: Input) => (typeof saved === 'string' ? saved : saved(input)) } : {}),
    ...(mutationKey ? { mutationKey } : {}),
    failed: 'Not saved',
  });
}
