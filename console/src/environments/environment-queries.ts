import { queryOptions, useQuery } from '@tanstack/react-query';
import { CloneEnvironment, CreateEnvironment } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

// What many pages look up and that changes rarely: kept for a minute; a change made here refreshes it at once.
const STALE_MS = 60_000;

export const environmentsQuery = () =>
  queryOptions({
    ...endpointQuery('/api/admin/environments'),
    select: (data) => data.environments,
    staleTime: STALE_MS,
  });
export const useEnvironments = () => useQuery(environmentsQuery());

const refresh = ['/api/admin/environments'] as const;

/** A new environment, or one cloned from another with its flags' configuration. */
export const useSaveEnvironment = (cloneOf: string | undefined) =>
  useChange(
    (body: { name: string; type: string }) =>
      cloneOf
        ? answer(
            api.POST('/api/admin/environments/{name}/clone', {
              params: { path: { name: cloneOf } },
              body: checked(CloneEnvironment, body),
            }),
          )
        : answer(api.POST('/api/admin/environments', { body: checked(CreateEnvironment, body) })),
    {
      refresh,
      done: (_created, body) => (cloneOf ? `${body.name} cloned from ${cloneOf}` : `Environment ${body.name} created`),
    },
  );

export const useSwitchEnvironment = () =>
  useChange(
    ({ name, enabled }: { name: string; enabled: boolean }) =>
      enabled
        ? answer(api.POST('/api/admin/environments/{name}/on', { params: { path: { name } } }))
        : answer(api.POST('/api/admin/environments/{name}/off', { params: { path: { name } } })),
    { refresh, failed: 'Not saved' },
  );

/** The order of environments everywhere: on flag pages, in tables, in SDK-facing lists. */
export const useSortEnvironments = () =>
  useChange((order: Record<string, number>) => answer(api.PUT('/api/admin/environments/sort-order', { body: order })), {
    refresh,
    failed: 'Not saved',
  });

export const useRemoveEnvironment = () =>
  useChange((name: string) => answer(api.DELETE('/api/admin/environments/{name}', { params: { path: { name } } })), {
    refresh,
    done: 'Environment removed',
    failed: 'Not removed',
  });
