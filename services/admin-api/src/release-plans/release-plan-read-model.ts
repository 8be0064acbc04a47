import type { EnvironmentSafeguard, ReleasePlan } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { planView, safeguardView } from './release-plan-views.ts';
import { releasePlanStore } from './release-plan-store.ts';

/** What the flag views show of release management: each flag environment's plans and own safeguards. */
export const releasePlanReadModel = {
  /** Whether a plan is applied to the flag environment. */
  hasPlan: async (db: Queryable, featureName: string, environment: string) =>
    (await releasePlanStore.planIn(db, featureName, environment)) !== null,

  async forFeatures(db: Queryable, featureNames: readonly string[]) {
    const plans = await releasePlanStore.plansOf(db, featureNames);
    const [milestones, safeguards] = await Promise.all([
      plans.length > 0
        ? releasePlanStore.milestonesOf(
            db,
            plans.map((plan) => plan.id),
          )
        : Promise.resolve([]),
      releasePlanStore.safeguardsOf(db, featureNames),
    ]);
    const key = (feature: string, environment: string) => `${feature}\u0000${environment}`;
    const plansByKey = new Map<string, ReleasePlan[]>();
    for (const plan of plans)
      plansByKey.set(key(plan.featureName, plan.environment), [planView(plan, milestones, safeguards)]);
    const safeguardsByKey = new Map<string, EnvironmentSafeguard[]>();
    for (const safeguard of safeguards.filter((one) => one.planId === null)) {
      const list = safeguardsByKey.get(key(safeguard.featureName, safeguard.environment)) ?? [];
      list.push(safeguardView(safeguard) as EnvironmentSafeguard);
      safeguardsByKey.set(key(safeguard.featureName, safeguard.environment), list);
    }
    return {
      plansIn: (feature: string, environment: string) => plansByKey.get(key(feature, environment)) ?? [],
      safeguardsIn: (feature: string, environment: string) => safeguardsByKey.get(key(feature, environment)) ?? [],
    };
  },
};
