import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpointQuery, invalidate, type BodyOf } from '../../api/endpoint.ts';
import { answer, api } from '../../api/http.ts';
import { useChange } from '../../ui/use-change.ts';

/** Signing in with a password; who is signed in is then asked again. */
export function usePasswordSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/auth/simple/login', 'post'>) => answer(api.POST('/auth/simple/login', { body })),
    onSuccess: () => invalidate(queryClient, '/api/admin/user'),
  });
}

/** Whose password a reset link sets. */
export const useResetToken = (token: string) =>
  useQuery({ ...endpointQuery('/auth/reset/validate', { query: { token } }), retry: false, enabled: token !== '' });

/** Asks for a reset link by e-mail (answered alike whether or not the address has an account). */
export const useResetByEmail = () =>
  useMutation({
    mutationFn: (email: string) => answer(api.POST('/auth/reset/password-email', { body: { email } })),
  });

export const useResetPassword = () =>
  useMutation({
    mutationFn: (body: BodyOf<'/auth/reset/password', 'post'>) => answer(api.POST('/auth/reset/password', { body })),
  });

export const usePasswordSettings = () => useQuery(endpointQuery('/api/admin/auth/simple/settings'));

export const useSetPasswordSignIn = () =>
  useChange((disabled: boolean) => answer(api.POST('/api/admin/auth/simple/settings', { body: { disabled } })), {
    refresh: ['/api/admin/auth/simple/settings'],
    done: 'Password sign-in saved',
    failed: 'Not saved',
  });
