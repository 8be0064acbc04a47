import { answer, api } from '../api/http.ts';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { useFlagChange } from '../feature-state/flag-queries.ts';
import type { SafeguardBody } from '../safeguards/safeguard-body.ts';

const base = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}' as const;

/**
 * What may be done to a flag's release plan and safeguards in one environment. Where change requests are on, each
 * change goes to the user's draft as Unleash's action of the same name, and says so.
 */
export function useReleasePlanChanges(project: string, flag: string, environment: string) {
  const drafts = useChangeRequestDrafts(project);
  const guarded = drafts.required(environment);
  const path = { projectId: project, featureName: flag, environment };
  const said = (direct: string, drafted: string) =>
    guarded ? `${drafted} was added to your change request in ${environment}` : direct;
  const propose = (action: string, payload: unknown) =>
    drafts.propose(environment, { feature: flag, action, payload } as never);
  return {
    guarded,
    apply: useFlagChange(
      (templateId: string) =>
        guarded
          ? propose('addReleasePlan', { templateId })
          : answer(api.POST(`${base}/release-plans`, { params: { path }, body: { templateId } })),
      said('Release plan applied', 'Applying the release plan'),
    ),
    remove: useFlagChange(
      (planId: string) =>
        guarded
          ? propose('deleteReleasePlan', { planId })
          : answer(api.DELETE(`${base}/release-plans/{planId}`, { params: { path: { ...path, planId } } })),
      said('Release plan removed', 'Removing the release plan'),
    ),
    start: useFlagChange(
      ({ planId, milestoneId }: { planId: string; milestoneId: string }) =>
        guarded
          ? propose('startMilestone', { planId, milestoneId })
          : answer(
              api.POST(`${base}/release-plans/{planId}/milestones/{milestoneId}/start`, {
                params: { path: { ...path, planId, milestoneId } },
              }),
            ),
      said('Milestone started', 'Starting the milestone'),
    ),
    setProgression: useFlagChange(
      ({ source, target, minutes }: { source: string; target: string; minutes: number }) => {
        const body = { targetMilestone: target, transitionCondition: { intervalMinutes: minutes } };
        return guarded
          ? propose('changeMilestoneProgression', { sourceMilestone: source, ...body })
          : answer(
              api.PUT(`${base}/progressions/{sourceMilestoneId}`, {
                params: { path: { ...path, sourceMilestoneId: source } },
                body,
              }),
            );
      },
      said('Progression saved', 'The progression'),
    ),
    removeProgression: useFlagChange(
      (source: string) =>
        guarded
          ? propose('deleteMilestoneProgression', { sourceMilestone: source })
          : answer(
              api.DELETE(`${base}/progressions/{sourceMilestoneId}`, {
                params: { path: { ...path, sourceMilestoneId: source } },
              }),
            ),
      said('The milestone now waits to be started', 'Removing the progression'),
    ),
    resume: useFlagChange(
      (planId: string) =>
        guarded
          ? propose('resumeMilestoneProgression', { planId })
          : answer(api.POST(`${base}/progressions/{planId}/resume`, { params: { path: { ...path, planId } } })),
      said('Progressions resumed', 'Resuming'),
    ),
    setPlanSafeguard: useFlagChange(
      ({ planId, body }: { planId: string; body: SafeguardBody }) =>
        guarded
          ? propose('changeReleasePlanSafeguard', { planId, safeguard: body })
          : answer(
              api.PUT(`${base}/release-plans/{planId}/safeguards`, { params: { path: { ...path, planId } }, body }),
            ),
      said('Safeguard saved', 'The safeguard'),
    ),
    removePlanSafeguard: useFlagChange(
      ({ planId, id }: { planId: string; id: string }) =>
        guarded
          ? propose('deleteReleasePlanSafeguard', { planId, safeguardId: id })
          : answer(
              api.DELETE(`${base}/release-plans/{planId}/safeguards/{safeguardId}`, {
                params: { path: { ...path, planId, safeguardId: id } },
              }),
            ),
      said('Safeguard removed', 'Removing the safeguard'),
    ),
    setFlagSafeguard: useFlagChange(
      (body: SafeguardBody) =>
        guarded
          ? propose('changeFeatureEnvSafeguard', { safeguard: body })
          : answer(api.PUT(`${base}/safeguards`, { params: { path }, body })),
      said('Safeguard saved', 'The safeguard'),
    ),
    removeFlagSafeguard: useFlagChange(
      (id: string) =>
        guarded
          ? propose('deleteFeatureEnvSafeguard', { safeguardId: id })
          : answer(api.DELETE(`${base}/safeguards/{safeguardId}`, { params: { path: { ...path, safeguardId: id } } })),
      said('Safeguard removed', 'Removing the safeguard'),
    ),
  };
}
