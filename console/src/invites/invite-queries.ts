import { useMutation, useQuery } from '@tanstack/react-query';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useInviteLinks = () => useQuery(endpointQuery('/api/admin/invite-link/tokens'));

const refresh = ['/api/admin/invite-link/tokens'] as const;

/** A link anyone may sign up with (as a Viewer) for a week. */
export const useCreateInviteLink = () =>
  useChange(
    (name: string) =>
      answer(
        api.POST('/api/admin/invite-link/tokens', {
          body: { name, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() },
        }),
      ),
    { refresh },
  );

export const useDisableInviteLink = () =>
  useChange(
    (token: string) =>
      answer(
        api.PUT('/api/admin/invite-link/tokens/{token}', { params: { path: { token } }, body: { enabled: false } }),
      ),
    { refresh, done: 'Invite link disabled', failed: 'Not saved' },
  );

/** Whether an invite link may be used (asked signed out, by the sign-up page). */
export const useInvite = (token: string) =>
  useQuery({ ...endpointQuery('/invite/{token}/validate', { path: { token } }), retry: false, enabled: token !== '' });

export const useSignUp = (token: string) =>
  useMutation({
    mutationFn: (body: BodyOf<'/invite/{token}/signup', 'post'>) =>
      answer(api.POST('/invite/{token}/signup', { params: { path: { token } }, body })),
  });
