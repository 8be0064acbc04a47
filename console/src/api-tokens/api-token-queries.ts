import { useQuery } from '@tanstack/react-query';
import { CreateApiToken } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useApiTokens = () => useQuery(endpointQuery('/api/admin/api-tokens'));

const refresh = ['/api/admin/api-tokens'] as const;
/** A token is addressed by its id (its secret is shown only once, when made). */
const byId = (id: number) => ({ params: { path: { token: `id:${id}` } } });

export const useCreateApiToken = () =>
  useChange(
    (body: BodyOf<'/api/admin/api-tokens', 'post'>) =>
      answer(api.POST('/api/admin/api-tokens', { body: checked(CreateApiToken, body) })),
    { refresh },
  );

export const useSetApiTokenExpiry = () =>
  useChange(
    ({ id, days }: { id: number; days: number }) =>
      answer(
        api.PUT('/api/admin/api-tokens/{token}', {
          ...byId(id),
          body: { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() },
        }),
      ),
    { refresh, done: 'Expiry changed', failed: 'Not changed' },
  );

export const useDeleteApiToken = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/api-tokens/{token}', byId(id))), {
    refresh,
    done: 'Token deleted: it stops working at once',
    failed: 'Not deleted',
  });
