import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const maintenanceQuery = () => queryOptions({ ...endpointQuery('/api/admin/maintenance'), staleTime: 15_000 });
export const useMaintenance = () => useQuery(maintenanceQuery());

export const useSetMaintenance = () =>
  useChange((enabled: boolean) => answer(api.POST('/api/admin/maintenance', { body: { enabled } })), {
    refresh: ['/api/admin/maintenance'],
    failed: 'Not saved',
  });
