import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type BodyOf } from '../../api/endpoint.ts';
import { answer, api } from '../../api/http.ts';
import { useChange } from '../../ui/use-change.ts';

export type SamlSettings = AnswerOf<'/api/admin/auth/saml/settings'>;

export const useSamlSettings = () => useQuery(endpointQuery('/api/admin/auth/saml/settings'));

export const useSaveSamlSettings = () =>
  useChange(
    (body: BodyOf<'/api/admin/auth/saml/settings', 'post'>) =>
      answer(api.POST('/api/admin/auth/saml/settings', { body })),
    { refresh: ['/api/admin/auth/saml/settings'], done: 'SAML settings saved' },
  );
