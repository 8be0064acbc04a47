import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

// The agents (MCP clients) the signed-in person connected through OAuth.
export const useOwnAgents = () => useQuery(endpointQuery('/api/admin/user/agents'));

export const useDisconnectOwnAgent = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/user/agents/{id}', { params: { path: { id } } })), {
    refresh: ['/api/admin/user/agents', '/api/admin/agents'],
    done: 'Agent disconnected',
    failed: 'Not disconnected',
  });

// Everyone's, for admins.
export const useAllAgents = () => useQuery(endpointQuery('/api/admin/agents'));

export const useDisconnectAgent = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/agents/{id}', { params: { path: { id } } })), {
    refresh: ['/api/admin/agents', '/api/admin/user/agents'],
    done: 'Agent disconnected',
    failed: 'Not disconnected',
  });
