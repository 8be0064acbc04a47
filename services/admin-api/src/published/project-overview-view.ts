import { ProjectOverviewView, type ProjectOverview } from '@bunting/contracts';
import { answerView, type Messaging, type Queryable } from '@bunting/platform';
import { projectFeatureViews } from '../features/feature-read-model.ts';
import { changeRequestGate } from '../change-request-settings/change-request-gate.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
/** One project as admin-api knows it, for the health report; null when there is no such project. */
async function loadProjectOverview(
  db: Queryable,
  projectId: string,
  principalKey: string,
): Promise<ProjectOverview | null> {
  const project = await projectReadModel.view(db, projectId, principalKey);
  if (!project) return null;
  const [features, environments, changeRequests] = await Promise.all([
    projectFeatureViews(db, projectId, principalKey),
    projectReadModel.defaultStrategies(db, projectId, project.defaultStickiness),
    changeRequestGate.enabledIn(db, projectId),
  ]);
  return {
    version: 1,
    name: project.name,
    description: project.description,
    defaultStickiness: project.defaultStickiness,
    mode: project.mode,
    featureLimit: project.featureLimit,
    members: project.memberCount,
    health: project.health,
    technicalDebt: 100 - project.health,
    environments: environments.map((environment) => ({
      environment: environment.environment,
      changeRequestsEnabled: changeRequests.has(environment.environment),
      defaultStrategy: environment.strategy,
    })),
    features,
    updatedAt: project.updatedAt,
    createdAt: project.createdAt,
    favorite: project.favorite,
    featureNaming: project.featureNaming,
    potentiallyStaleCount: project.potentiallyStaleFeatureCount,
    activeCount: project.featureCount - project.staleFeatureCount,
    staleCount: project.staleFeatureCount,
  };
}

/** Answers insights' health-report requests: one project as admin-api knows it, or null. */
export function answerProjectOverviewView(messaging: Messaging, db: Queryable) {
  return answerView(messaging, ProjectOverviewView, ({ projectId, principalKey }) =>
    loadProjectOverview(db, projectId, principalKey),
  );
}
