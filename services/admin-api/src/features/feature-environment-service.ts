import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { refreshLifecycle } from '../feature-state/lifecycle.ts';
import { requireProjectEnvironment } from '../projects/project-read-model.ts';
import { strategyService } from '../strategies/strategy-service.ts';
import { releasePlanReadModel } from '../release-plans/release-plan-read-model.ts';
import { loadFeatureViews } from './feature-read-model.ts';

export const featureEnvironmentService = {
  async get(db: Queryable, project: string, featureName: string, environment: string) {
    const feature = await requireFeature(db, project, featureName, { allowArchived: true });
    await requireProjectEnvironment(db, project, environment);
    const [view] = await loadFeatureViews(db, [feature], null);
    return view!.environments.find((item) => item.name === environment)!;
  },

  /**
   * Switching on an environment with no enabled strategy first adds the project environment's default
   * strategy (flexibleRollout at 100 % unless configured), as Unleash does.
   */
  async setEnabled(change: Change, project: string, featureName: string, environment: string, enabled: boolean) {
    const feature = await requireFeature(change.tx, project, featureName, { forWrite: true });
    await requireProjectEnvironment(change.tx, project, environment);
    const state = await environmentState.get(change.tx, featureName, environment);
    if ((state?.enabled ?? false) === enabled) return;
    // A release plan there brings its own strategies (its first milestone starts as the flag is switched on).
    if (enabled && !(await releasePlanReadModel.hasPlan(change.tx, featureName, environment)))
      await strategyService.ensureEnabledStrategy(change, feature, environment);
    await environmentState.setEnabled(change.tx, featureName, environment, enabled);
    change.emit({
      type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled',
      project,
      featureName,
      environment,
    });
    await refreshLifecycle(change.tx, feature);
  },
};
