import { useQuery } from '@tanstack/react-query';
import { CreateRole } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type AnswerOf, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useRoles = () => useQuery(endpointQuery('/api/admin/roles'));

/** Every permission a role may hold, by where it applies (instance, project, environment). */
export const usePermissionCatalogue = () => useQuery(endpointQuery('/api/admin/permissions'));
export type PermissionCatalogue = AnswerOf<'/api/admin/permissions'>;

const refresh = ['/api/admin/roles'] as const;

export const useCreateRole = () =>
  useChange(
    (body: BodyOf<'/api/admin/roles', 'post'>) =>
      answer(api.POST('/api/admin/roles', { body: checked(CreateRole, body) })),
    { refresh, done: 'Role created' },
  );

export const useDeleteRole = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/roles/{roleId}', { params: { path: { roleId: id } } })), {
    refresh,
    done: 'Role deleted',
    failed: 'Not deleted',
  });
