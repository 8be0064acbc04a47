import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpointQuery, invalidate, type AnswerOf, type BodyOf } from '../api/endpoint.ts';
import { ApiError, answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

/** What the 401 of /api/admin/user says about signing in: the methods offered, and whether the password form is hidden. */
export type SignInOptions = { defaultHidden?: boolean; options?: { type: string; message: string; path: string }[] };

/** How one may sign in, or null when already signed in. */
export const useSignInOptions = () => useQuery({
  queryKey: ['/api/admin/user', 'sign-in-options'],
  queryFn: async () => {
    try {
      await answer(api.GET('/api/admin/user'));
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return error.body as SignInOptions;
      throw error;
    }
  },
  retry: false,
});

/** Signing in with a password; who is signed in is then asked again. */
export function usePasswordSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/auth/simple/login', 'post'>) => answer(api.POST('/auth/simple/login', { body })),
    onSuccess: () => invalidate(queryClient, '/api/admin/user'),
  });
}

/** Whether an invite link may be used. */
export const useInvite = (token: string) => useQuery({ ...endpointQuery('/invite/{token}/validate', { path: { token } }), retry: false, enabled: token !== '' });

export const useSignUp = (token: string) => useMutation({
  mutationFn: (body: BodyOf<'/invite/{token}/signup', 'post'>) => answer(api.POST('/invite/{token}/signup', { params: { path: { token } }, body })),
});

/** Whose password a reset link sets. */
export const useResetToken = (token: string) => useQuery({ ...endpointQuery('/auth/reset/validate', { query: { token } }), retry: false, enabled: token !== '' });

export const useResetPassword = () => useMutation({
  mutationFn: (body: BodyOf<'/auth/reset/password', 'post'>) => answer(api.POST('/auth/reset/password', { body })),
});

// How people sign in: the password form on or off, and OpenID Connect.
export type OidcSettings = AnswerOf<'/api/admin/auth/oidc/settings'>;

export const usePasswordSettings = () => useQuery(endpointQuery('/api/admin/auth/simple/settings'));
export const useOidcSettings = () => useQuery(endpointQuery('/api/admin/auth/oidc/settings'));

export const useSetPasswordSignIn = () => useChange(
  (disabled: boolean) => answer(api.POST('/api/admin/auth/simple/settings', { body: { disabled } })),
  { refresh: ['/api/admin/auth/simple/settings'], done: 'Password sign-in saved', failed: 'Not saved' },
);

export const useSaveOidcSettings = () => useChange(
  (body: BodyOf<'/api/admin/auth/oidc/settings', 'post'>) => answer(api.POST('/api/admin/auth/oidc/settings', { body })),
  { refresh: ['/api/admin/auth/oidc/settings'], done: 'OpenID Connect settings saved' },
);
