import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeRequestView } from '@bunting/contracts';
import { get, post, segment } from '../api/http.ts';

export type EnvironmentConfig = { environment: string; changeRequestEnabled: boolean; requiredApprovals: number | null };

export const changeRequestKeys = {
  all: ['change-requests'] as const,
  config: (project: string) => ['change-requests', project, 'config'] as const,
  pending: (project: string, flag: string) => ['change-requests', project, 'pending', flag] as const,
  list: (project: string) => ['change-requests', project, 'list'] as const,
  detail: (project: string, id: number) => ['change-requests', project, id] as const,
};

const base = (project: string) => `/api/admin/projects/${segment(project)}/change-requests`;

/** Which environments of a project take changes through change requests. */
export const changeRequestConfigQuery = (project: string) => queryOptions({
  queryKey: changeRequestKeys.config(project),
  queryFn: ({ signal }) => get<EnvironmentConfig[]>(`${base(project)}/config`, signal),
  staleTime: 30_000,
});
export const useChangeRequestConfig = (project: string) => useQuery(changeRequestConfigQuery(project));

/** The open change requests touching one flag. */
export const usePendingChanges = (project: string, flag: string) => useQuery({
  queryKey: changeRequestKeys.pending(project, flag),
  queryFn: ({ signal }) => get<ChangeRequestView[]>(`${base(project)}/pending/${segment(flag)}`, signal),
});

export const useChangeRequests = (project: string) => useQuery({
  queryKey: changeRequestKeys.list(project),
  queryFn: ({ signal }) => get<ChangeRequestView[]>(base(project), signal),
});

export const useChangeRequest = (project: string, id: number) => useQuery({
  queryKey: changeRequestKeys.detail(project, id),
  queryFn: ({ signal }) => get<ChangeRequestView>(`${base(project)}/${id}`, signal),
});

export const changeRequestPath = (project: string, id: number) => `/projects/${segment(project)}/change-requests/${id}`;
const proposePath = (project: string, environment: string) => `/api/admin/projects/${segment(project)}/environments/${segment(environment)}/change-requests`;

/**
 * Where a project's environments require change requests, a change made there goes to the user's draft instead:
 * `required` says where, `propose` adds one change to the draft (and refreshes what shows pending changes).
 */
export function useChangeRequestDrafts(project: string) {
  const config = useChangeRequestConfig(project);
  const queryClient = useQueryClient();
  return {
    required: (environment: string) => config.data?.some((entry) => entry.environment === environment && entry.changeRequestEnabled) ?? false,
    /** The first environment that takes changes through requests: where a change to the whole flag (archiving) is drafted. */
    anyRequired: () => config.data?.find((entry) => entry.changeRequestEnabled)?.environment,
    propose: async (environment: string, change: { feature: string; action: string; payload: unknown }) => {
      const proposed = await post(proposePath(project, environment), change);
      await queryClient.invalidateQueries({ queryKey: changeRequestKeys.all });
      return proposed;
    },
  };
}
