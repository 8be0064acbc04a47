import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Feature, FeatureSearchResult } from '@bunting/contracts';
import { get, segment } from '../api/http.ts';
import { flagKeys } from '../api/keys.ts';
import { notifyFailed, notifySaved } from '../ui/notify.ts';

/**
 * How often an open flag page asks for the flag again, so a change made elsewhere (another user, a script, an
 * action set) shows within a couple of seconds. The answer carries an ETag, so an unchanged flag costs a 304.
 */
export const LIVE_REFRESH_MS = 2_000;

export const flagPath = (project: string, name: string) => `/api/admin/projects/${segment(project)}/features/${segment(name)}`;

export const flagQuery = (project: string, name: string) => queryOptions({
  queryKey: flagKeys.detail(project, name),
  queryFn: ({ signal }) => get<Feature>(flagPath(project, name), signal),
  refetchInterval: LIVE_REFRESH_MS,
});

export const useFlag = (project: string, name: string) => useQuery(flagQuery(project, name));

export const flagSearchQuery = (project: string, query: URLSearchParams) => {
  const text = query.toString();
  return queryOptions({
    queryKey: flagKeys.search(project, text),
    queryFn: ({ signal }) => get<FeatureSearchResult>(`/api/admin/search/features?${text}`, signal),
    // The table keeps showing the last page while the next one loads, instead of flashing empty.
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_REFRESH_MS * 5,
  });
};

export const useFlagSearch = (project: string, query: URLSearchParams) => useQuery(flagSearchQuery(project, query));

/**
 * A change to a flag: sent, then the flag and every list it appears in asked for again. A failure is shown and
 * thrown back to the form, which keeps what the user typed.
 */
export function useFlagChange<Input, Output = unknown>(project: string, name: string, send: (input: Input) => Promise<Output>, saved?: string | ((input: Input) => string), mutationKey?: readonly unknown[]) {
  const queryClient = useQueryClient();
  return useMutation({
    ...(mutationKey ? { mutationKey } : {}),
    mutationFn: send,
    onSuccess: (_output, input) => {
      if (saved) notifySaved(typeof saved === 'string' ? saved : saved(input));
    },
    onError: (error) => notifyFailed(error),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: flagKeys.detail(project, name) }),
        queryClient.invalidateQueries({ queryKey: [...flagKeys.all, 'search'] }),
        queryClient.invalidateQueries({ queryKey: flagKeys.history(name) }),
      ]);
    },
  });
}
