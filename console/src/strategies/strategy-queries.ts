import type { CreateFeatureStrategy } from '@bunting/contracts';
import { answer, api } from '../api/http.ts';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { useFlagChange } from '../feature-state/flag-queries.ts';

type SortOrder = { id: string; sortOrder: number }[];

/**
 * What may be done to a flag's strategies in one environment. Where change requests are on there, each change
 * goes to the user's draft instead of to the flag, and says so.
 */
export function useStrategyChanges(project: string, flag: string, environment: string) {
  const drafts = useChangeRequestDrafts(project);
  const guarded = drafts.required(environment);
  const path = { projectId: project, featureName: flag, environment };
  const inDraft = (what: string) => `${what} was added to your change request in ${environment}`;
  const withId = (strategyId: string) => ({ params: { path: { ...path, strategyId } } });
  return {
    guarded,
    add: useFlagChange(
      (body: CreateFeatureStrategy) =>
        guarded
          ? drafts.propose(environment, { feature: flag, action: 'addStrategy', payload: body })
          : answer(
              api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
                params: { path },
                body,
              }),
            ),
      guarded ? inDraft('The strategy') : `Strategy saved in ${environment}`,
    ),
    update: useFlagChange(
      ({ id, body }: { id: string; body: CreateFeatureStrategy }) =>
        guarded
          ? drafts.propose(environment, { feature: flag, action: 'updateStrategy', payload: { ...body, id } })
          : answer(
              api.PUT(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
                { ...withId(id), body },
              ),
            ),
      ({ body }) =>
        guarded
          ? inDraft(
              body.disabled === undefined ? 'The strategy' : `${body.disabled ? 'Disabling' : 'Enabling'} the strategy`,
            )
          : `Strategy saved in ${environment}`,
    ),
    reorder: useFlagChange(
      (order: SortOrder) =>
        guarded
          ? drafts.propose(environment, { feature: flag, action: 'reorderStrategy', payload: order })
          : answer(
              api.POST(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order',
                { params: { path }, body: order },
              ),
            ),
      guarded ? inDraft('The new order') : 'Strategies reordered',
    ),
    remove: useFlagChange(
      (id: string) =>
        guarded
          ? drafts.propose(environment, { feature: flag, action: 'deleteStrategy', payload: { id } })
          : answer(
              api.DELETE(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
                withId(id),
              ),
            ),
      guarded ? inDraft('Deleting the strategy') : `Strategy deleted from ${environment}`,
    ),
    /** A copy in another environment (straight there: the copy is a new strategy, not a change of this one). */
    copyTo: useFlagChange(
      ({ target, body }: { target: string; body: CreateFeatureStrategy }) =>
        answer(
          api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
            params: { path: { ...path, environment: target } },
            body,
          }),
        ),
      ({ target }) => `Strategy copied to ${target}`,
    ),
  };
}
