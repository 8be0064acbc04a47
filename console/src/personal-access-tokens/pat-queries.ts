import { useQuery } from '@tanstack/react-query';
import { CreatePat, CreateServiceAccount } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

/** A token's body: what it is for, and when it stops working. */
export const patBody = (description: string, days: number) => ({
  description: description.trim(),
  expiresAt: new Date(Date.now() + days * 86_400_000).toISOString(),
});

// The signed-in user's own tokens.
export const useOwnTokens = () => useQuery(endpointQuery('/api/admin/user/tokens'));

export const useCreateOwnToken = () =>
  useChange(
    (body: BodyOf<'/api/admin/user/tokens', 'post'>) =>
      answer(api.POST('/api/admin/user/tokens', { body: checked(CreatePat, body) })),
    { refresh: ['/api/admin/user/tokens'] },
  );

export const useDeleteOwnToken = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/user/tokens/{id}', { params: { path: { id } } })), {
    refresh: ['/api/admin/user/tokens'],
    done: 'Token deleted',
    failed: 'Not deleted',
  });

// Service accounts: users for machines, with tokens of their own.
export const useServiceAccounts = (enabled: boolean) =>
  useQuery({ ...endpointQuery('/api/admin/service-account'), enabled });

export const useCreateServiceAccount = () =>
  useChange(
    (body: BodyOf<'/api/admin/service-account', 'post'>) =>
      answer(api.POST('/api/admin/service-account', { body: checked(CreateServiceAccount, body) })),
    { refresh: ['/api/admin/service-account'], done: 'Service account created' },
  );

export const useDeleteServiceAccount = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/service-account/{id}', { params: { path: { id } } })), {
    refresh: ['/api/admin/service-account'],
    done: 'Service account deleted',
    failed: 'Not deleted',
  });

export const useServiceAccountTokens = (id: number) =>
  useQuery(endpointQuery('/api/admin/service-account/{id}/token', { path: { id } }));

export const useCreateServiceAccountToken = (id: number) =>
  useChange(
    (body: BodyOf<'/api/admin/service-account/{id}/token', 'post'>) =>
      answer(
        api.POST('/api/admin/service-account/{id}/token', { params: { path: { id } }, body: checked(CreatePat, body) }),
      ),
    { refresh: ['/api/admin/service-account/{id}/token'] },
  );

export const useDeleteServiceAccountToken = (id: number) =>
  useChange(
    (tokenId: number) =>
      answer(api.DELETE('/api/admin/service-account/{id}/token/{tokenId}', { params: { path: { id, tokenId } } })),
    { refresh: ['/api/admin/service-account/{id}/token'], done: 'Token deleted', failed: 'Not deleted' },
  );
