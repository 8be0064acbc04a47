import { randomUUID } from 'node:crypto';
import { CreateFeatureStrategy } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireProject } from '../projects/project-service.ts';
import { projectStore } from '../projects/project-store.ts';
import { normalizeStrategy } from '../strategies/strategy-rules.ts';
import { requireProjectEnvironment } from '../strategies/strategy-service.ts';
import { strategyStore, strategyView } from '../strategies/strategy-store.ts';
import { loadFeatureViews } from './feature-read-model.ts';
import { requireFeature } from './feature-lookup.ts';
import { featureEnvironmentStore } from './feature-store.ts';
import { refreshLifecycle } from './lifecycle.ts';

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
    const state = await featureEnvironmentStore.get(change.tx, featureName, environment);
    if ((state?.enabled ?? false) === enabled) return;
    const scope = { project, featureName, environment };
    if (enabled) {
      const strategies = await strategyStore.listFor(change.tx, featureName, environment);
      if (!strategies.some((strategy) => !strategy.disabled)) {
        const projectRow = await requireProject(change.tx, project);
        const configured = await projectStore.defaultStrategy(change.tx, project, environment);
        const template = CreateFeatureStrategy.parse(configured ?? { name: 'flexibleRollout', constraints: [], parameters: {} });
        const strategy = await normalizeStrategy(change.tx, template, {
          featureName,
          defaultStickiness: projectRow.defaultStickiness,
          sortOrder: await strategyStore.nextSortOrder(change.tx, featureName, environment),
        });
        const id = randomUUID();
        await strategyStore.insert(change.tx, id, featureName, environment, strategy);
        change.emit({ type: 'feature-strategy-add', ...scope, data: strategyView((await strategyStore.get(change.tx, id))!) });
      }
    }
    await featureEnvironmentStore.setEnabled(change.tx, featureName, environment, enabled);
    change.emit({ type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled', ...scope });
    await refreshLifecycle(change.tx, feature);
  },
};
