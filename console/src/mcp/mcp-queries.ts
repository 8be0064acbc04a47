import { useQuery } from '@tanstack/react-query';
import { OAuthConsentDecision, RemoteMcpSettings } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const useRemoteMcp = () => useQuery(endpointQuery('/api/admin/remote-mcp/settings'));

export const useSetRemoteMcp = () =>
  useChange(
    (enabled: boolean) =>
      answer(api.PUT('/api/admin/remote-mcp/settings', { body: checked(RemoteMcpSettings, { enabled }) })),
    { refresh: ['/api/admin/remote-mcp/settings'], failed: 'Not saved' },
  );

// An MCP client's sign-in request, as the consent page shows it; never asked again once answered.
export const useConsentRequest = (id: string) =>
  useQuery({
    ...endpointQuery('/api/admin/mcp/oauth/requests/{id}', { path: { id } }),
    retry: false,
    staleTime: Infinity,
  });

export const useDecideConsent = (id: string) =>
  useChange(
    (decision: BodyOf<'/api/admin/mcp/oauth/requests/{id}', 'post'>) =>
      answer(
        api.POST('/api/admin/mcp/oauth/requests/{id}', {
          params: { path: { id } },
          body: checked(OAuthConsentDecision, decision),
        }),
      ),
    { refresh: [], failed: 'Not answered' },
  );
