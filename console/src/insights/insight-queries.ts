import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../api/endpoint.ts';

/** The executive dashboard's trends over a range of days. */
export const useInstanceInsights = (from: string, to: string) =>
  useQuery(endpointQuery('/api/admin/insights', { query: { from, to } }));

/** A flag's SDK metrics per hour, asked for again every 15 s while shown. */
export const useFlagMetrics = (featureName: string) =>
  useQuery({
    ...endpointQuery('/api/admin/client-metrics/features/{name}', { path: { name: featureName } }),
    refetchInterval: 15_000,
  });

export const useInstanceStatistics = () => useQuery(endpointQuery('/api/admin/instance-admin/statistics'));

export const useProjectStatus = (project: string) =>
  useQuery(endpointQuery('/api/admin/projects/{projectId}/status', { path: { projectId: project } }));

/** The applications SDKs registered, those whose name holds the text. */
export const useApplications = (query: string) =>
  useQuery(endpointQuery('/api/admin/metrics/applications', { query: { query, limit: 100 } }));

export const useApplicationOverview = (appName: string) =>
  useQuery(endpointQuery('/api/admin/metrics/applications/{appName}/overview', { path: { appName } }));
