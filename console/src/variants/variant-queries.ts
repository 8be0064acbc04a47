import { answer, api } from '../api/http.ts';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { useFlagChange } from '../feature-state/flag-queries.ts';
import { toWire, type VariantDraft } from './variant-drafts.ts';

/** A flag's variants in one environment saved (to the user's change request where change requests are on there). */
export function useSaveEnvironmentVariants(project: string, flag: string, environment: string) {
  const drafts = useChangeRequestDrafts(project);
  const guarded = drafts.required(environment);
  return useFlagChange(
    (next: VariantDraft[]) =>
      guarded
        ? drafts.propose(environment, {
            feature: flag,
            action: 'patchVariant',
            payload: { variants: toWire(next, true) },
          })
        : answer(
            api.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
              params: { path: { projectId: project, featureName: flag, environment } },
              body: toWire(next, true),
            }),
          ),
    guarded ? `The variants were added to your change request in ${environment}` : `Variants saved in ${environment}`,
  );
}
