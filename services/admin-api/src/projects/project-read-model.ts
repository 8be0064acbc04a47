import { FeatureStrategy, type Project } from '@bunting/contracts';
import { NotFoundError, type Queryable } from '@bunting/platform';
import { healthRating } from '../rules/project-health.ts';
import type { FeatureNaming } from '../rules/project-rules.ts';
import { projectStore, type ProjectRow, type ProjectSettingsRow, type ProjectWrite } from './project-store.ts';

export type { ProjectRow };

export async function requireProject(db: Queryable, id: string): Promise<ProjectRow> {
  const project = await projectStore.get(db, id);
  if (!project) throw new NotFoundError(`Could not find project with id ${id}`);
  return project;
}

/**
 * The project's settings a flag write needs (default stickiness, naming, limit): a lean read, as it runs for every
 * flag of an import, where the full row's counts over all flags cost more the more flags there are.
 */
export async function requireProjectSettings(db: Queryable, id: string): Promise<ProjectSettingsRow> {
  const project = await projectStore.settings(db, id);
  if (!project) throw new NotFoundError(`Could not find project with id ${id}`);
  return project;
}

/** The environment must exist and belong to the project. */
export async function requireProjectEnvironment(db: Queryable, project: string, environment: string): Promise<void> {
  if (!(await projectStore.hasEnvironment(db, project, environment))) {
    throw new NotFoundError(`Could not find environment ${environment} in project ${project}`);
  }
}

/** A project's flag-naming rule as answers and events carry it. */
export function featureNaming(row: ProjectWrite | ProjectRow) {
  return {
    pattern: row.featureNamingPattern,
    example: row.featureNamingExample,
    description: row.featureNamingDescription,
  };
}

/**
 * Unleash's onboarding steps as far as admin-api can tell them: no flag yet, a first flag, or an SDK reporting
 * metrics for the project's flags (an SDK that connected without reporting is known only to insights).
 */
function onboardingStatus(row: ProjectRow): Project['onboardingStatus'] {
  if (row.lastReportedFlagUsage !== null) return { status: 'onboarded' };
  if (row.firstFlag !== null) return { status: 'first-flag-created', feature: row.firstFlag };
  return { status: 'onboarding-started' };
}

export function toProject(row: ProjectRow, favorite: boolean): Project {
  const health = healthRating({
    total: row.featureCount,
    stale: row.staleFeatureCount,
    potentiallyStale: row.potentiallyStaleFeatureCount,
  });
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    health,
    technicalDebt: 100 - health,
    featureCount: row.featureCount,
    staleFeatureCount: row.staleFeatureCount,
    potentiallyStaleFeatureCount: row.potentiallyStaleFeatureCount,
    memberCount: row.memberCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archivedAt: row.archivedAt,
    favorite,
    mode: row.mode,
    defaultStickiness: row.defaultStickiness,
    featureLimit: row.featureLimit,
    featureNaming: featureNaming(row),
    environments: row.environments,
    lastUpdatedAt: row.lastUpdatedAt,
    lastReportedFlagUsage: row.lastReportedFlagUsage,
    onboardingStatus: onboardingStatus(row),
    // Unleash names the system as owner of a project nobody owns.
    owners:
      row.owners.length > 0
        ? row.owners.map((owner) =>
            owner.ownerType === 'group' ? { ownerType: 'group' as const, name: owner.name } : owner,
          )
        : [{ ownerType: 'system' as const }],
  };
}

const StoredDefault = FeatureStrategy.pick({
  name: true,
  title: true,
  disabled: true,
  constraints: true,
  parameters: true,
  variants: true,
  segments: true,
}).partial();

/** The strategy a flag receives when it is enabled without one: configured per environment, else a 100 % rollout. */
export function defaultStrategy(stored: Record<string, unknown> | null, defaultStickiness: string) {
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

/** What the rest of admin-api may ask of projects. */
export const projectReadModel = {
  /** Each environment of the project (in display order) with the strategy flags get there when enabled without one. */
  async defaultStrategies(db: Queryable, id: string, defaultStickiness: string) {
    return (await projectStore.environmentDefaults(db, id)).map((row) => ({
      environment: row.environment,
      strategy: defaultStrategy(row.strategy, defaultStickiness),
    }));
  },
  requireProject,
  requireProjectEnvironment,
  exists: (db: Queryable, id: string) => projectStore.exists(db, id),
  hasEnvironment: (db: Queryable, id: string, environment: string) => projectStore.hasEnvironment(db, id, environment),
  /**
   * The rules a new flag in the project must follow. Its active flags are counted only against a limit: counting
   * them for every flag made cost an import of thousands of flags time that grew with the square of their number.
   */
  async flagRules(
    db: Queryable,
    id: string,
  ): Promise<{
    naming: FeatureNaming;
    archived: boolean;
    limit: { featureLimit: number; activeFlags: number } | null;
  }> {
    const project = await requireProjectSettings(db, id);
    return {
      naming: { pattern: project.featureNamingPattern, example: project.featureNamingExample },
      archived: project.archivedAt !== null,
      limit:
        project.featureLimit === null
          ? null
          : { featureLimit: project.featureLimit, activeFlags: await projectStore.activeFlagCount(db, id) },
    };
  },
  /** The strategy configured for flags enabled in the environment without one, if any. */
  defaultStrategy: (db: Queryable, id: string, environment: string) =>
    projectStore.defaultStrategy(db, id, environment),
  /** The environments of each project (name, type, sort order), in display order. */
  environmentsOf: (db: Queryable, ids: readonly string[]) => projectStore.environmentsOf(db, ids),
  firstProductionEnvironment: (db: Queryable, id: string) => projectStore.firstProductionEnvironment(db, id),
  /** Projects as the API shows them (not as anyone's favourites), in the order of the store's listing. */
  async views(db: Queryable, ids: readonly string[]): Promise<Project[]> {
    const wanted = new Set(ids);
    return (await projectStore.list(db)).filter((row) => wanted.has(row.id)).map((row) => toProject(row, false));
  },
  /** The project as the API shows it to one caller (favorite is theirs); null when there is none. */
  async view(db: Queryable, id: string, principalKey: string): Promise<Project | null> {
    const row = await projectStore.get(db, id);
    return row ? toProject(row, await projectStore.isFavorite(db, principalKey, id)) : null;
  },
};
