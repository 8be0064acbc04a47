import { CreateFeatureStrategy, type CreateProject, type Project, type UpdateProject } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import { PROJECT_ROLE } from '../access/permission-catalogue.ts';
import type { Change } from '../events/changes.ts';
import { environmentReadModel } from '../environments/environment-read-model.ts';
import { normalizeStrategy } from '../rules/strategy-rules.ts';
import { checkFeatureNaming } from '../rules/project-rules.ts';
import { projectEnvironments } from '../environments/project-environments.ts';
import { projectStore, type ProjectRow, type ProjectWrite } from './project-store.ts';
import { featureNaming, requireProject, requireProjectEnvironment, toProject } from './project-read-model.ts';

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
    if (await projectStore.exists(tx, input.id))
      throw new NameExistsError(`A project with the id ${input.id} already exists`);
    checkFeatureNaming(input.featureNaming);
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
    const environments = input.environments ?? (await environmentReadModel.enabledNames(tx));
    for (const environment of environments) {
      if (!(await environmentReadModel.exists(tx, environment))) {
        throw ValidationError.field('environments', `environment ${environment} does not exist`);
      }
      await projectEnvironments.add(tx, input.id, environment);
    }
    emit({ type: 'project-created', project: input.id, data: { ...eventState(write), environments } });
    // A person who creates a project owns it.
    const creator = change.actor.createdByUserId;
    if (creator !== null && creator > 0) await projectStore.addOwner(tx, input.id, creator, PROJECT_ROLE.OWNER);
    return toProject(await requireProject(tx, input.id), false);
  },

  async update({ tx, emit }: Change, id: string, input: UpdateProject): Promise<Project> {
    const before = await requireProject(tx, id);
    if (input.featureNaming) checkFeatureNaming(input.featureNaming);
    const write: ProjectWrite = {
      id,
      name: input.name ?? before.name,
      description: input.description === undefined ? before.description : input.description,
      mode: input.mode ?? before.mode,
      defaultStickiness: input.defaultStickiness ?? before.defaultStickiness,
      featureLimit: input.featureLimit === undefined ? before.featureLimit : input.featureLimit,
      featureNamingPattern: input.featureNaming ? input.featureNaming.pattern : before.featureNamingPattern,
      featureNamingExample: input.featureNaming ? (input.featureNaming.example ?? null) : before.featureNamingExample,
      featureNamingDescription: input.featureNaming
        ? (input.featureNaming.description ?? null)
        : before.featureNamingDescription,
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
      throw ValidationError.field(
        'projectId',
        'A project with features cannot be deleted; archive and delete its features first',
      );
    }
    await projectStore.delete(tx, id);
    emit({ type: 'project-deleted', project: id, preData: eventState(before) });
  },

  async setArchived({ tx, emit }: Change, id: string, archived: boolean) {
    const before = await requireProject(tx, id);
    if ((before.archivedAt !== null) === archived) return;
    if (archived && id === 'default')
      throw ValidationError.field('projectId', 'The default project cannot be archived');
    if (archived && (await projectStore.countFeatures(tx, id, false)) > 0) {
      throw ValidationError.field('projectId', 'A project with active features cannot be archived');
    }
    await projectStore.setArchived(tx, id, archived);
    emit({ type: archived ? 'project-archived' : 'project-revived', project: id });
  },

  async addEnvironment({ tx, emit }: Change, id: string, environment: string) {
    await requireProject(tx, id);
    if (!(await environmentReadModel.exists(tx, environment)))
      throw new NotFoundError(`Could not find environment with name ${environment}`);
    if (await projectStore.hasEnvironment(tx, id, environment)) return;
    await projectEnvironments.add(tx, id, environment);
    emit({ type: 'project-environment-added', project: id, environment });
  },

  async removeEnvironment({ tx, emit }: Change, id: string, environment: string) {
    await requireProject(tx, id);
    if (!(await projectStore.hasEnvironment(tx, id, environment))) {
      throw new NotFoundError(`Environment ${environment} is not part of project ${id}`);
    }
    await projectEnvironments.remove(tx, id, environment);
    emit({ type: 'project-environment-removed', project: id, environment });
  },

  /** The strategy flags get when enabled in the environment without one; stored with an empty groupId, which each
   * flag that receives it fills with its own name. */
  async setDefaultStrategy({ tx, emit }: Change, id: string, environment: string, input: CreateFeatureStrategy) {
    const project = await requireProject(tx, id);
    await requireProjectEnvironment(tx, id, environment);
    if (input.name !== 'flexibleRollout')
      throw ValidationError.field(
        'name',
        'the default strategy of an environment must be flexibleRollout, as in Unleash',
      );
    const normalized = await normalizeStrategy(tx, input, {
      featureName: '',
      defaultStickiness: project.defaultStickiness,
      sortOrder: 0,
    });
    const stored = {
      name: normalized.name,
      title: normalized.title,
      disabled: normalized.disabled,
      constraints: normalized.constraints,
      parameters: normalized.parameters,
      variants: normalized.variants,
      segments: normalized.segments,
    };
    await projectEnvironments.setDefaultStrategy(tx, id, environment, stored);
    emit({ type: 'default-strategy-updated', project: id, environment, data: stored });
    return stored;
  },

  async setFavorite({ tx, emit }: Change, principalKey: string, id: string, favorite: boolean) {
    await requireProject(tx, id);
    if ((await projectStore.isFavorite(tx, principalKey, id)) === favorite) return;
    await projectStore.setFavorite(tx, principalKey, id, favorite);
    emit({ type: favorite ? 'project-favorited' : 'project-unfavorited', project: id, data: { project: id } });
  },
};
