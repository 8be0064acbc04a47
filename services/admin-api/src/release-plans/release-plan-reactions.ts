import type { ChangeReaction } from '../events/changes.ts';
import { releasePlanService } from './release-plan-service.ts';

/**
 * What release plans do within other changes: a flag environment switched on starts the first milestone of a plan
 * waiting there; a running milestone's strategy edited on the flag is kept in the plan; an environment leaving a
 * project takes its flags' plans there along.
 */
export const releasePlanReactions: ChangeReaction = async (change, drafts) => {
  for (const draft of drafts) {
    if (draft.type === 'feature-environment-enabled' && draft.featureName && draft.environment) {
      await releasePlanService.environmentEnabled(change, draft.featureName, draft.environment);
    } else if (
      draft.type === 'feature-strategy-update' &&
      typeof draft.data?.milestoneId === 'string' &&
      typeof draft.data.id === 'string'
    ) {
      await releasePlanService.milestoneStrategyEdited(change, {
        id: draft.data.id,
        milestoneId: draft.data.milestoneId,
      });
    } else if (draft.type === 'project-environment-removed' && draft.project && draft.environment) {
      await releasePlanService.projectEnvironmentRemoved(change, draft.project, draft.environment);
    }
  }
};
