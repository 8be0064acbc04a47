import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../api/endpoint.ts';

/** Where code uses a flag, as the last scan of each branch found it (`bunting code-refs`). */
export const useCodeReferences = (project: string, flag: string) =>
  useQuery(
    endpointQuery('/api/admin/projects/{projectId}/features/{featureName}/code-references', {
      path: { projectId: project, featureName: flag },
    }),
  );

/** Flags that look safe to remove: unused in scanned code, not evaluated for `days`, and completed or stale. */
export const useCleanupCandidates = (days: number) =>
  useQuery(endpointQuery('/api/admin/cleanup-candidates', { query: { days } }));
