import { InventoryView, type Inventory } from '@bunting/contracts';
import { answerView, type Messaging, type Queryable } from '@bunting/platform';
import { healthRating } from '../rules/project-health.ts';
import { signInMethodsEnabled } from '../sign-in/sign-in-methods.ts';
import { inventoryStore } from './inventory-store.ts';

/** Today's counts of everything admin-api owns that the insights service reports on. */
async function loadInventory(db: Queryable): Promise<Inventory> {
  const [totals, projects, features, environments, signIn, lifecycle] = await Promise.all([
    inventoryStore.totals(db),
    inventoryStore.projects(db),
    inventoryStore.featureProjects(db),
    inventoryStore.environments(db),
    signInMethodsEnabled(db),
    inventoryStore.lifecycle(db),
  ]);

  const flags = { total: 0, active: 0, stale: 0, potentiallyStale: 0 };
  for (const project of projects) {
    flags.total += project.total;
    flags.stale += project.stale;
    flags.potentiallyStale += project.potentiallyStale;
  }
  flags.active = flags.total - flags.stale;

  return {
    takenAt: new Date().toISOString(),
    users: {
      total: totals.users,
      serviceAccounts: totals.serviceAccounts,
      readOnly: totals.readOnlyUsers,
      seenWithin: { last7: totals.seen7, last30: totals.seen30, last60: totals.seen60, last90: totals.seen90 },
    },
    counts: {
      featureToggles: totals.featureToggles,
      archivedFeatureToggles: totals.archivedFeatureToggles,
      projects: totals.projects,
      contextFields: totals.contextFields,
      roles: totals.roles,
      customRootRoles: totals.customRootRoles,
      groups: totals.groups,
      environments: totals.environments,
      segments: totals.segments,
      strategies: totals.strategies,
    },
    apiTokens: { admin: totals.adminTokens, client: totals.clientTokens, frontend: totals.frontendTokens },
    maxEnvironmentStrategies: totals.maxEnvironmentStrategies,
    maxConstraints: totals.maxConstraints,
    maxConstraintValues: totals.maxConstraintValues,
    oidcEnabled: signIn.oidc === true,
    samlEnabled: signIn.saml === true,
    passwordAuthEnabled: signIn.password === true,
    environments: [...environments],
    flags,
    projects: projects.map((project) => ({
      ...project,
      active: project.total - project.stale,
      health: healthRating(project),
    })),
    featureProjects: Object.fromEntries(features.map((feature) => [feature.name, feature.project])),
    lifecycle: [...lifecycle],
  };
}

/** Answers insights' inventory requests: today's counts, gzipped. */
export function answerInventoryView(messaging: Messaging, db: Queryable) {
  return answerView(messaging, InventoryView, () => loadInventory(db));
}
