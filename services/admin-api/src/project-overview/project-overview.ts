import type { ProjectEnvironments, ProjectOverviewAnswer } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { z } from 'zod';
import { changeRequestGate } from '../change-request-settings/change-request-gate.ts';
import { environmentReadModel } from '../environments/environment-read-model.ts';
import { featureRows } from '../feature-state/feature-rows.ts';
import { projectReadModel, requireProject, toProject } from '../projects/project-read-model.ts';

/** A project's environments as its settings page shows them: counts, default strategy, change-request approvals. */
export async function projectEnvironments(
  db: Queryable,
  projectId: string,
): Promise<z.infer<typeof ProjectEnvironments>> {
  const project = await requireProject(db, projectId);
  const [environments, defaults, changeRequests] = await Promise.all([
    environmentReadModel.forProject(db, projectId),
    projectReadModel.defaultStrategies(db, projectId, project.defaultStickiness),
    changeRequestGate.enabledIn(db, projectId),
  ]);
  const defaultsByEnvironment = new Map(defaults.map((entry) => [entry.environment, entry.strategy]));
  return {
    version: 1,
    environments: environments.map((environment) => ({
      ...environment,
      defaultStrategy: defaultsByEnvironment.get(environment.name) ?? {},
      // Bunting hides no environment from a project's pages.
      visible: true,
      requiredApprovals: changeRequests.get(environment.name) ?? null,
    })),
  };
}

/** A project's overview page (Unleash's projectOverviewSchema); the activity windows are insights', in the health report. */
export async function projectOverview(
  db: Queryable,
  projectId: string,
  principalKey: string,
): Promise<z.infer<typeof ProjectOverviewAnswer>> {
  const row = await requireProject(db, projectId);
  const [project, defaults, changeRequests, flags] = await Promise.all([
    projectReadModel.view(db, projectId, principalKey),
    projectReadModel.defaultStrategies(db, projectId, row.defaultStickiness),
    changeRequestGate.enabledIn(db, projectId),
    featureRows.listByProject(db, projectId, false),
  ]);
  const shown = project ?? toProject(row, false);
  const typeCounts = new Map<string, number>();
  for (const flag of flags) typeCounts.set(flag.type, (typeCounts.get(flag.type) ?? 0) + 1);
  return {
    version: 1,
    name: shown.name,
    description: shown.description,
    defaultStickiness: shown.defaultStickiness,
    mode: shown.mode,
    featureLimit: shown.featureLimit,
    featureNaming: shown.featureNaming,
    linkTemplates: [],
    members: shown.memberCount,
    health: shown.health,
    technicalDebt: shown.technicalDebt ?? 100 - shown.health,
    environments: defaults.map((entry) => ({
      environment: entry.environment,
      changeRequestsEnabled: changeRequests.has(entry.environment),
      defaultStrategy: entry.strategy,
    })),
    featureTypeCounts: [...typeCounts]
      .map(([type, count]) => ({ type, count }))
      .sort((a, b) => a.type.localeCompare(b.type)),
    updatedAt: shown.updatedAt,
    archivedAt: shown.archivedAt,
    createdAt: shown.createdAt,
    favorite: shown.favorite,
    onboardingStatus: shown.onboardingStatus ?? { status: 'onboarding-started' },
  };
}
