import { useQuery } from '@tanstack/react-query';
import { CreateGroup } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useGroups = () => useQuery(endpointQuery('/api/admin/groups'));

const refresh = ['/api/admin/groups'] as const;

export const useCreateGroup = () =>
  useChange(
    (body: BodyOf<'/api/admin/groups', 'post'>) =>
      answer(api.POST('/api/admin/groups', { body: checked(CreateGroup, body) })),
    { refresh, done: 'Group created' },
  );

export const useDeleteGroup = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/groups/{groupId}', { params: { path: { groupId: id } } })), {
    refresh,
    done: 'Group deleted',
    failed: 'Not deleted',
  });
