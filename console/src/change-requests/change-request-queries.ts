import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpointQuery, invalidate, type BodyOf, type ReadPath } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { FLAG_ENDPOINTS } from '../feature-state/flag-queries.ts';
import { useChange } from '../ui/use-change.ts';

/** Which environments of a project take changes through change requests. */
export const changeRequestConfigQuery = (project: string) =>
  queryOptions({
    ...endpointQuery('/api/admin/projects/{projectId}/change-requests/config', { path: { projectId: project } }),
    staleTime: 30_000,
  });
export const useChangeRequestConfig = (project: string) => useQuery(changeRequestConfigQuery(project));

/** The open change requests touching one flag. */
export const usePendingChanges = (project: string, flag: string) =>
  useQuery(
    endpointQuery('/api/admin/projects/{projectId}/change-requests/pending/{featureName}', {
      path: { projectId: project, featureName: flag },
    }),
  );

export const useChangeRequests = (project: string) =>
  useQuery(endpointQuery('/api/admin/projects/{projectId}/change-requests', { path: { projectId: project } }));

export const useChangeRequest = (project: string, id: number) =>
  useQuery(endpointQuery('/api/admin/projects/{projectId}/change-requests/{id}', { path: { projectId: project, id } }));

export const changeRequestPath = (project: string, id: number) =>
  `/projects/${encodeURIComponent(project)}/change-requests/${id}`;

/** What moving a change request on makes stale: the requests, and (once applied) the flags they changed. */
const REQUEST_ENDPOINTS: readonly ReadPath[] = [
  '/api/admin/projects/{projectId}/change-requests',
  '/api/admin/projects/{projectId}/change-requests/{id}',
  '/api/admin/projects/{projectId}/change-requests/pending/{featureName}',
  ...FLAG_ENDPOINTS,
];

/** One change proposed for a change request: its action and what it asks. */
export type ProposedChange = Exclude<
  BodyOf<'/api/admin/projects/{projectId}/environments/{environment}/change-requests', 'post'>,
  unknown[]
>;

/**
 * Where a project's environments require change requests, a change made there goes to the user's draft instead:
 * `required` says where, `propose` adds one change to the draft (and refreshes what shows pending changes).
 */
export function useChangeRequestDrafts(project: string) {
  const config = useChangeRequestConfig(project);
  const queryClient = useQueryClient();
  return {
    required: (environment: string) =>
      config.data?.some((entry) => entry.environment === environment && entry.changeRequestEnabled) ?? false,
    /** The first environment that takes changes through requests: where a change to the whole flag (archiving) is drafted. */
    anyRequired: () => config.data?.find((entry) => entry.changeRequestEnabled)?.environment,
    propose: async (environment: string, change: ProposedChange) => {
      const proposed = await answer(
        api.POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
          params: { path: { projectId: project, environment } },
          body: change,
        }),
      );
      await invalidate(queryClient, ...REQUEST_ENDPOINTS);
      return proposed;
    },
  };
}

type StateChange = BodyOf<'/api/admin/projects/{projectId}/change-requests/{id}/state', 'put'>;

/** A change request moved on: to review, approved, rejected, scheduled, applied or cancelled. */
export const useMoveChangeRequest = (project: string, id: number) =>
  useChange(
    (body: StateChange) =>
      answer(
        api.PUT('/api/admin/projects/{projectId}/change-requests/{id}/state', {
          params: { path: { projectId: project, id } },
          body,
        }),
      ),
    {
      refresh: REQUEST_ENDPOINTS,
      done: (_answer, body) =>
        body.state === 'Applied'
          ? 'Change request applied'
          : body.state === 'Scheduled'
            ? 'Change request scheduled'
            : `Change request now ${body.state.toLowerCase()}`,
    },
  );

export const useCommentChangeRequest = (project: string, id: number) =>
  useChange(
    (text: string) =>
      answer(
        api.POST('/api/admin/projects/{projectId}/change-requests/{id}/comments', {
          params: { path: { projectId: project, id } },
          body: { text },
        }),
      ),
    { refresh: REQUEST_ENDPOINTS },
  );
