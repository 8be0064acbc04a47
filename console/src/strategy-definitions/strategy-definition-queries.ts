import { queryOptions, useQuery } from '@tanstack/react-query';
import { CreateStrategyDefinition } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

const STALE_MS = 60_000;

export const strategyDefinitionsQuery = () =>
  queryOptions({ ...endpointQuery('/api/admin/strategies'), select: (data) => data.strategies, staleTime: STALE_MS });
export const useStrategyDefinitions = () => useQuery(strategyDefinitionsQuery());

const refresh = ['/api/admin/strategies'] as const;

export const useCreateStrategyDefinition = () =>
  useChange(
    (body: BodyOf<'/api/admin/strategies', 'post'>) =>
      answer(api.POST('/api/admin/strategies', { body: checked(CreateStrategyDefinition, body) })),
    { refresh, done: 'Strategy created' },
  );

/** A custom strategy deprecated (no longer offered for new flags) or made current again. */
export const useDeprecateStrategyDefinition = () =>
  useChange(
    ({ name, deprecated }: { name: string; deprecated: boolean }) =>
      deprecated
        ? answer(api.POST('/api/admin/strategies/{name}/deprecate', { params: { path: { name } } }))
        : answer(api.POST('/api/admin/strategies/{name}/reactivate', { params: { path: { name } } })),
    { refresh, failed: 'Not saved' },
  );

export const useDeleteStrategyDefinition = () =>
  useChange((name: string) => answer(api.DELETE('/api/admin/strategies/{name}', { params: { path: { name } } })), {
    refresh,
    done: 'Strategy deleted',
    failed: 'Not deleted',
  });
