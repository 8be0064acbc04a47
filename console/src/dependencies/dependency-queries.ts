import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useFlagChange } from '../feature-state/flag-queries.ts';

/** Flags of the project a parent may be chosen from, found by the server as the user types. */
export function useParentCandidates(project: string, flag: string, text: string) {
  const [query] = useDebouncedValue(text, 200);
  return useQuery({
    ...endpointQuery('/api/admin/search/features', {
      query: { project: `IS:${project}`, query, limit: 20, sortBy: 'name', sortOrder: 'asc' },
    }),
    select: (result) => result.features.map((feature) => feature.name).filter((name) => name !== flag),
  });
}

/** The variants a child may require of a parent. */
export const useParentVariants = (project: string, parent: string | null) =>
  useQuery({
    ...endpointQuery('/api/admin/projects/{projectId}/features/{parent}/parent-variants', {
      path: { projectId: project, parent: parent ?? '' },
    }),
    enabled: parent !== null,
  });

export const useAddDependency = (project: string, flag: string) =>
  useFlagChange(
    (dependency: BodyOf<'/api/admin/projects/{projectId}/features/{child}/dependencies', 'post'>) =>
      answer(
        api.POST('/api/admin/projects/{projectId}/features/{child}/dependencies', {
          params: { path: { projectId: project, child: flag } },
          body: dependency,
        }),
      ),
    (dependency) => `${flag} now depends on ${dependency.feature}`,
  );

export const useRemoveDependency = (project: string, flag: string) =>
  useFlagChange(
    (parent: string) =>
      answer(
        api.DELETE('/api/admin/projects/{projectId}/features/{child}/dependencies/{parent}', {
          params: { path: { projectId: project, child: flag, parent } },
        }),
      ),
    (parent) => `Dependency on ${parent} removed`,
  );
