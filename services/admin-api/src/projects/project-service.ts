import type { CreateProject, Project, UpdateProject } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import { PROJECT_ROLE } from '../access/permission-catalogue.ts';
import type { Change } from '../events/changes.ts';
import { environmentStore } from '../environments/environment-store.ts';
import { healthRating } from './project-health.ts';
import { projectStore, type ProjectRow, type ProjectWrite } from './project-store.ts';

export async function requireProject(db: Queryable, id: string): Promise<ProjectRow> {
  const project = await projectStore.get(db, id);
  if (!project) throw new NotFoundError(`Could not find project with id ${id}`);
  return project;
}

/** A project's flag-naming rule as answers and events carry it. */
function featureNaming(row: ProjectWrite | ProjectRow) {
  return { pattern: row.featureNamingPattern, example: row.featureNamingExample, description: row.featureNamingDescription };
}

export function toProject(row: ProjectRow, favorite: boolean): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    health: healthRating({ total: row.featureCount, stale: row.staleFeatureCount, potentiallyStale: row.potentiallyStaleFeatureCount }),
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
  };
}

function eventState(row: ProjectWrite | ProjectRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    defaultStickiness: row.defaultStickiness,
    featureLimit: row.featureLimit,
    featureNaming: featureNaming(row),
  };
}

/** A naming pattern must be a valid regular expression, and its example must match it. */
function checkNaming(naming: CreateProject['featureNaming']) {
  if (!naming?.pattern) return;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${naming.pattern})$`);
  } catch {
    throw ValidationError.field('featureNaming.pattern', 'is not a valid regular expression');
  }
  if (naming.example && !pattern.test(naming.example)) {
    throw ValidationError.field('featureNaming.example', `"${naming.example}" does not match the pattern`);
  }
}

export const projectService = {
  async list(db: Queryable, principalKey: string) {
    const [rows, favorites] = await Promise.all([projectStore.list(db), projectStore.favoriteIds(db, principalKey)]);
    const favoriteSet = new Set(favorites);
    return { version: 1, projects: rows.map((row) => toProject(row, favoriteSet.has(row.id))) };
  },

  async get(db: Queryable, id: string, principalKey: string) {
    const row = await requireProject(db, id);
    return toProject(row, await projectStore.isFavorite(db, principalKey, id));
  },

  async validateId(db: Queryable, id: string) {
    if (await projectStore.exists(db, id)) throw new NameExistsError(`A project with the id ${id} already exists`);
  },

  async create(change: Change, input: CreateProject): Promise<Project> {
    const { tx, emit } = change;
    if (await projectStore.exists(tx, input.id)) throw new NameExistsError(`A project with the id ${input.id} already exists`);
    checkNaming(input.featureNaming);
    const write: ProjectWrite = {
      id: input.id,
      name: input.name,
      description: input.description ?? null,
      mode: input.mode ?? 'open',
      defaultStickiness: input.defaultStickiness ?? 'default',
      featureLimit: input.featureLimit ?? null,
      featureNamingPattern: input.featureNaming?.pattern ?? null,
      featureNamingExample: input.featureNaming?.example ?? null,
      featureNamingDescription: input.featureNaming?.description ?? null,
    };
    await projectStore.insert(tx, write);
    const environments = input.environments ?? (await environmentStore.list(tx)).filter((e) => e.enabled).map((e) => e.name);
    for (const environment of environments) {
      if (!(await environmentStore.exists(tx, environment))) {
        throw ValidationError.field('environments', `environment ${environment} does not exist`);
      }
      await projectStore.addEnvironment(tx, input.id, environment);
    }
    emit({ type: 'project-created', project: input.id, data: { ...eventState(write), environments } });
    // A person who creates a project owns it.
    const creator = change.actor.createdByUserId;
    if (creator !== null && creator > 0 && (await tx.exists(sql.unsafe`select 1 from admin.users where id = ${creator}`))) {
      await tx.query(sql.unsafe`insert into admin.project_user_roles (project_id, user_id, role_id) values (${input.id}, ${creator}, ${PROJECT_ROLE.OWNER})`);
    }
    return toProject(await requireProject(tx, input.id), false);
  },

  async update({ tx, emit }: Change, id: string, input: UpdateProject): Promise<Project> {
    const before = await requireProject(tx, id);
    if (input.featureNaming) checkNaming(input.featureNaming);
    const write: ProjectWrite = {
      id,
      name: input.name ?? before.name,
      description: input.description === undefined ? before.description : input.description,
      mode: input.mode ?? before.mode,
      defaultStickiness: input.defaultStickiness ?? before.defaultStickiness,
      featureLimit: input.featureLimit === undefined ? before.featureLimit : input.featureLimit,
      featureNamingPattern: input.featureNaming ? input.featureNaming.pattern : before.featureNamingPattern,
      featureNamingExample: input.featureNaming ? input.featureNaming.example ?? null : before.featureNamingExample,
      featureNamingDescription: input.featureNaming ? input.featureNaming.description ?? null : before.featureNamingDescription,
    };
    const changed = JSON.stringify(eventState(write)) !== JSON.stringify(eventState(before));
    if (changed) {
      await projectStore.update(tx, write);
      emit({ type: 'project-updated', project: id, data: eventState(write), preData: eventState(before) });
    }
    return toProject(await requireProject(tx, id), false);
  },

  async delete({ tx, emit }: Change, id: string) {
    const before = await requireProject(tx, id);
    if (id === 'default') throw ValidationError.field('projectId', 'The default project cannot be deleted');
    if ((await projectStore.countFeatures(tx, id, true)) > 0) {
      throw ValidationError.field('projectId', 'A project with features cannot be deleted; archive and delete its features first');
    }
    await projectStore.delete(tx, id);
    emit({ type: 'project-deleted', project: id, preData: eventState(before) });
  },

  async setArchived({ tx, emit }: Change, id: string, archived: boolean) {
    const before = await requireProject(tx, id);
    if ((before.archivedAt !== null) === archived) return;
    if (archived && id === 'default') throw ValidationError.field('projectId', 'The default project cannot be archived');
    if (archived && (await projectStore.countFeatures(tx, id, false)) > 0) {
      throw ValidationError.field('projectId', 'A project with active features cannot be archived');
    }
    await projectStore.setArchived(tx, id, archived);
    emit({ type: archived ? 'project-archived' : 'project-revived', project: id });
  },

  async addEnvironment({ tx, emit }: Change, id: string, environment: string) {
    await requireProject(tx, id);
    if (!(await environmentStore.exists(tx, environment))) throw new NotFoundError(`Could not find environment with name ${environment}`);
    if (await projectStore.hasEnvironment(tx, id, environment)) return;
    await projectStore.addEnvironment(tx, id, environment);
    emit({ type: 'project-environment-added', project: id, environment });
  },

  async removeEnvironment({ tx, emit }: Change, id: string, environment: string) {
    await requireProject(tx, id);
    if (!(await projectStore.hasEnvironment(tx, id, environment))) {
      throw new NotFoundError(`Environment ${environment} is not part of project ${id}`);
    }
    await projectStore.removeEnvironment(tx, id, environment);
    emit({ type: 'project-environment-removed', project: id, environment });
  },

  async setFavorite({ tx, emit }: Change, principalKey: string, id: string, favorite: boolean) {
    await requireProject(tx, id);
    if ((await projectStore.isFavorite(tx, principalKey, id)) === favorite) return;
    await projectStore.setFavorite(tx, principalKey, id, favorite);
    emit({ type: favorite ? 'project-favorited' : 'project-unfavorited', project: id, data: { project: id } });
  },
};
