import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

/** Who holds which roles in a project, and the roles that may be given there. */
export const useProjectAccess = (project: string) =>
  useQuery(endpointQuery('/api/admin/projects/{projectId}/access', { path: { projectId: project } }));

const refresh = ['/api/admin/projects/{projectId}/access'] as const;

export const useGiveAccess = (project: string) =>
  useChange(
    (body: BodyOf<'/api/admin/projects/{projectId}/access', 'post'>) =>
      answer(api.POST('/api/admin/projects/{projectId}/access', { params: { path: { projectId: project } }, body })),
    { refresh, done: 'Access given' },
  );

export const useTakeAccess = (project: string) =>
  useChange(
    ({ kind, id }: { kind: 'users' | 'groups'; id: number }) =>
      kind === 'users'
        ? answer(
            api.DELETE('/api/admin/projects/{projectId}/users/{subjectId}/roles', {
              params: { path: { projectId: project, subjectId: id } },
            }),
          )
        : answer(
            api.DELETE('/api/admin/projects/{projectId}/groups/{subjectId}/roles', {
              params: { path: { projectId: project, subjectId: id } },
            }),
          ),
    { refresh, done: 'Access removed', failed: 'Not removed' },
  );
