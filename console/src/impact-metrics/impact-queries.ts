import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type BodyOf, type ParamsOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export type ImpactMetricInfo = AnswerOf<'/api/admin/impact-metrics/metadata'>['metrics'][number];
export type ImpactChart =
  AnswerOf<'/api/admin/projects/{projectId}/features/{featureName}/impact-metrics/config'>['configs'][number];
export type ImpactChartInput = BodyOf<
  '/api/admin/projects/{projectId}/features/{featureName}/impact-metrics/config',
  'post'
>;
export type ImpactQuery = NonNullable<ParamsOf<'/api/admin/impact-metrics'>['query']>;

/** How often a range's chart is asked again: a short range moves every minute, a long one slowly. */
const REFRESH_MS: Record<ImpactQuery['range'], number> = { hour: 15_000, day: 120_000, week: 300_000, month: 600_000 };

export const useImpactMetadata = () => useQuery(endpointQuery('/api/admin/impact-metrics/metadata'));

/** One metric over a range; not asked until a metric is chosen. */
export const useImpactData = (query: ImpactQuery | null) =>
  useQuery({
    ...endpointQuery('/api/admin/impact-metrics', { query: query ?? { metricName: '', range: 'hour' } }),
    enabled: query !== null && query.metricName !== '',
    refetchInterval: query ? REFRESH_MS[query.range] : false,
  });

const chartsPath = '/api/admin/projects/{projectId}/features/{featureName}/impact-metrics/config' as const;

export const useFlagCharts = (projectId: string, featureName: string) =>
  useQuery(endpointQuery(chartsPath, { path: { projectId, featureName } }));

export const useSaveChart = (projectId: string, featureName: string) =>
  useChange(
    (body: ImpactChartInput) => answer(api.POST(chartsPath, { params: { path: { projectId, featureName } }, body })),
    { refresh: [chartsPath], done: 'Chart saved' },
  );

export const useDeleteChart = (projectId: string, featureName: string) =>
  useChange(
    (id: string) => answer(api.DELETE(`${chartsPath}/{id}`, { params: { path: { projectId, featureName, id } } })),
    { refresh: [chartsPath], done: 'Chart removed' },
  );

export const useExternalSource = (enabled: boolean) =>
  useQuery({ ...endpointQuery('/api/admin/impact-metrics/external-source'), enabled });

export const useSaveExternalSource = () =>
  useChange(
    (body: BodyOf<'/api/admin/impact-metrics/external-source', 'post'>) =>
      answer(api.POST('/api/admin/impact-metrics/external-source', { body })),
    {
      refresh: ['/api/admin/impact-metrics/external-source', '/api/admin/impact-metrics/metadata'],
      done: 'External source saved',
    },
  );
