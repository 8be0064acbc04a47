import { useMutation, useQuery } from '@tanstack/react-query';
import { CreateUser } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

/** Every user and the root roles; `fresh` asks again whenever a picker opens (people are added elsewhere too). */
export const useUsers = (options: { fresh?: boolean } = {}) =>
  useQuery({
    ...endpointQuery('/api/admin/user-admin'),
    ...(options.fresh ? { refetchOnMount: 'always' as const } : {}),
  });

const refresh = ['/api/admin/user-admin'] as const;
const nameOf = (user: { id: number; name?: string | null; username?: string | null; email?: string | null }) =>
  user.name ?? user.username ?? user.email ?? `User ${user.id}`;

/** Whether this installation sends e-mail (an SMTP server is configured), as ui-config says. */
export const useEmailEnabled = () =>
  useQuery({ ...endpointQuery('/api/admin/ui-config'), select: (config) => config.emailEnabled });

/** A link the user sets a password with; shown where no welcome e-mail carries it. */
export const useResetLink = () =>
  useMutation({
    mutationFn: (id: number) => answer(api.POST('/api/admin/user-admin/reset-password', { body: { id: String(id) } })),
  });

export const useCreateUser = () =>
  useChange(
    (body: BodyOf<'/api/admin/user-admin', 'post'>) =>
      answer(api.POST('/api/admin/user-admin', { body: checked(CreateUser, body) })),
    { refresh, done: (user) => `${nameOf(user)} was added` },
  );

export const useUpdateUser = () =>
  useChange(
    ({ id, body }: { id: number; body: BodyOf<'/api/admin/user-admin/{id}', 'put'> }) =>
      answer(api.PUT('/api/admin/user-admin/{id}', { params: { path: { id } }, body })),
    { refresh, done: (user) => `${nameOf(user)} was saved`, failed: 'Not saved' },
  );

export const useRemoveUser = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/user-admin/{id}', { params: { path: { id } } })), {
    refresh,
    done: 'User removed',
    failed: 'Not removed',
  });

/** Lifts the lock failed sign-ins put on a user (5 in 15 minutes). */
export const useUnlockUser = () =>
  useChange(
    (user: { id: number; name?: string | null; username?: string | null; email?: string | null }) =>
      answer(api.POST('/api/admin/user-admin/{id}/unlock', { params: { path: { id: user.id } } })).then(() => user),
    { refresh, done: (user) => `${nameOf(user)} can sign in again`, failed: 'Not unlocked' },
  );
