import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpointQuery, invalidate } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useScimSettings = () => useQuery(endpointQuery('/api/admin/scim-settings'));

export const useSetScim = () =>
  useChange((enabled: boolean) => answer(api.POST('/api/admin/scim-settings', { body: { enabled } })), {
    refresh: ['/api/admin/scim-settings'],
    done: 'SCIM provisioning saved',
    failed: 'Not saved',
  });

/** A new token for the identity provider (the one before stops working); shown once. */
export function useNewScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => answer(api.POST('/api/admin/scim-settings/generate-new-token')),
    onSuccess: () => invalidate(queryClient, '/api/admin/scim-settings'),
  });
}
