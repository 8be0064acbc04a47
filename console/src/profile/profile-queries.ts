import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useProfile = () => useQuery(endpointQuery('/api/admin/user/profile'));

/** What the user is e-mailed about, and whether this installation sends e-mail at all. */
export const useNotifications = () => useQuery(endpointQuery('/api/admin/user/notifications'));
export const useEmailSent = () =>
  useQuery({ ...endpointQuery('/api/admin/ui-config'), select: (config) => config.emailEnabled });

export const useSetNotifications = () =>
  useChange(
    (body: BodyOf<'/api/admin/user/notifications', 'put'>) =>
      answer(api.PUT('/api/admin/user/notifications', { body })),
    { refresh: ['/api/admin/user/notifications'], done: 'E-mail preference saved', failed: 'Not saved' },
  );

export const useChangeOwnPassword = () =>
  useChange(
    (body: BodyOf<'/api/admin/user/change-password', 'post'>) =>
      answer(api.POST('/api/admin/user/change-password', { body })),
    { refresh: [], done: 'Password changed; your other sessions were signed out' },
  );

/** Ends every session of the user, this one included; what the console held of them is dropped. */
export function useSignOutEverywhere(then: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => answer(api.POST('/logout', { params: { query: { everywhere: 'true' } } })),
    onSuccess: () => {
      queryClient.clear();
      then();
    },
  });
}
