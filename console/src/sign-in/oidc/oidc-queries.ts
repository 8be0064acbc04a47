import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type BodyOf } from '../../api/endpoint.ts';
import { answer, api } from '../../api/http.ts';
import { useChange } from '../../ui/use-change.ts';

export type OidcSettings = AnswerOf<'/api/admin/auth/oidc/settings'>;

export const useOidcSettings = () => useQuery(endpointQuery('/api/admin/auth/oidc/settings'));

export const useSaveOidcSettings = () =>
  useChange(
    (body: BodyOf<'/api/admin/auth/oidc/settings', 'post'>) =>
      answer(api.POST('/api/admin/auth/oidc/settings', { body })),
    { refresh: ['/api/admin/auth/oidc/settings'], done: 'OpenID Connect settings saved' },
  );
