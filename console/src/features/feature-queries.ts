import { queryOptions, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { CreateFeature, FeatureType, UpdateFeature } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { ApiError, answer, api } from '../api/http.ts';
import { FLAG_ENDPOINTS, useFlagChange } from '../feature-state/flag-queries.ts';
import { useChange } from '../ui/use-change.ts';

export const featureTypesQuery = () =>
  queryOptions({ ...endpointQuery('/api/admin/feature-types'), select: (data) => data.types, staleTime: 60_000 });
export const useFeatureTypes = () => useQuery(featureTypesQuery());

/** A type chosen in a picker as the API names it (release when it names none the API knows). */
export const flagTypeOf = (chosen: string | null | undefined) =>
  FeatureType.options.find((option) => option === chosen) ?? 'release';

/** Asks the server whether a name may be used (free, well-formed, matching the project's naming pattern): its objection, or null. */
export function useNameCheck(project: string, name: string) {
  const [settled] = useDebouncedValue(name.trim(), 250);
  return useQuery({
    queryKey: ['/api/admin/features/validate', project, settled],
    queryFn: async () => {
      try {
        await answer(api.POST('/api/admin/features/validate', { body: { name: settled, projectId: project } }));
        return null;
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) return error.details[0]?.message ?? error.message;
        throw error;
      }
    },
    enabled: settled.length > 0,
    staleTime: 5_000,
    retry: false,
  });
}

export const useCreateFlag = (project: string) =>
  useChange(
    (body: BodyOf<'/api/admin/projects/{projectId}/features', 'post'>) =>
      answer(
        api.POST('/api/admin/projects/{projectId}/features', {
          params: { path: { projectId: project } },
          body: checked(CreateFeature, body),
        }),
      ),
    { refresh: FLAG_ENDPOINTS, done: (flag) => `Flag ${flag.name} created` },
  );

const flagParams = (project: string, name: string) => ({ params: { path: { projectId: project, featureName: name } } });

export const useUpdateFlag = (project: string, name: string) =>
  useFlagChange(
    (body: BodyOf<'/api/admin/projects/{projectId}/features/{featureName}', 'put'>) =>
      answer(
        api.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
          ...flagParams(project, name),
          body: checked(UpdateFeature, body),
        }),
      ),
    'Flag saved',
  );

export const useMarkStale = (project: string, name: string) =>
  useFlagChange(
    (stale: boolean) =>
      answer(
        api.PATCH('/api/admin/projects/{projectId}/features/{featureName}', {
          ...flagParams(project, name),
          body: [{ op: 'replace', path: '/stale', value: stale }],
        }),
      ),
    (stale) => (stale ? 'Marked stale' : 'Marked active'),
  );

export const useArchiveFlag = (project: string, name: string, saved: string) =>
  useFlagChange(
    () => answer(api.DELETE('/api/admin/projects/{projectId}/features/{featureName}', flagParams(project, name))),
    saved,
  );

export const useReviveFlag = (project: string, name: string) =>
  useFlagChange(
    () =>
      answer(
        api.POST('/api/admin/projects/{projectId}/revive', {
          params: { path: { projectId: project } },
          body: { features: [name] },
        }),
      ),
    `${name} revived`,
  );

export const useDeleteFlag = (project: string, name: string) =>
  useFlagChange(
    () =>
      answer(
        api.POST('/api/admin/projects/{projectId}/delete', {
          params: { path: { projectId: project } },
          body: { features: [name] },
        }),
      ),
    `${name} deleted`,
  );
