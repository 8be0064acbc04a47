import { z } from 'zod';
import { FeatureStrategy, type ProjectOverview } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { loadFeatureViews } from '../features/feature-read-model.ts';
import { featureStore } from '../features/feature-store.ts';
import { toProject } from '../projects/project-service.ts';
import { projectStore } from '../projects/project-store.ts';

const ProjectEnvironmentRow = z.object({ environment: z.string(), strategy: z.record(z.string(), z.unknown()).nullable() });
const StoredDefault = FeatureStrategy.pick({ name: true, title: true, disabled: true, constraints: true, parameters: true, variants: true, segments: true }).partial();

/** The strategy a flag receives when it is enabled without one: configured per environment, else a 100 % rollout. */
function defaultStrategy(stored: Record<string, unknown> | null, defaultStickiness: string) {
  const parsed = StoredDefault.safeParse(stored ?? {});
  const configured = parsed.success ? parsed.data : {};
  return {
    name: configured.name ?? 'flexibleRollout',
    title: configured.title ?? null,
    disabled: configured.disabled ?? false,
    sortOrder: 0,
    constraints: configured.constraints ?? [],
    variants: configured.variants ?? [],
    parameters: configured.parameters ?? { rollout: '100', stickiness: defaultStickiness, groupId: '' },
    segments: configured.segments ?? [],
  };
}

/** One project as admin-api knows it, for the health report; null when there is no such project. */
export async function loadProjectOverview(db: Queryable, projectId: string, principalKey: string): Promise<ProjectOverview | null> {
  const row = await projectStore.get(db, projectId);
  if (!row) return null;
  const [featureRows, environments, favorite] = await Promise.all([
    featureStore.listByProject(db, projectId, false),
    db.any(sql.type(ProjectEnvironmentRow)`
      select pe.environment, pe.default_strategy as strategy
      from admin.project_environments pe join admin.environments e on e.name = pe.environment
      where pe.project_id = ${projectId} order by e.sort_order, e.name`),
    projectStore.isFavorite(db, principalKey, projectId),
  ]);
  const project = toProject(row, favorite);
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
      changeRequestsEnabled: false,
      defaultStrategy: defaultStrategy(environment.strategy, project.defaultStickiness),
    })),
    features: await loadFeatureViews(db, featureRows, principalKey),
    updatedAt: project.updatedAt,
    createdAt: project.createdAt,
    favorite,
    featureNaming: project.featureNaming,
    potentiallyStaleCount: project.potentiallyStaleFeatureCount,
    activeCount: project.featureCount - project.staleFeatureCount,
    staleCount: project.staleFeatureCount,
  };
}
