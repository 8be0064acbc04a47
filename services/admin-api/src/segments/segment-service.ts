import type { Segment, UpsertSegment } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { normalizeConstraints } from '../rules/constraint-rules.ts';
import { segmentStore } from './segment-store.ts';

function eventState(segment: Segment) {
  return {
    id: segment.id,
    name: segment.name,
    description: segment.description,
    project: segment.project,
    constraints: segment.constraints,
    createdBy: segment.createdBy,
    createdAt: segment.createdAt,
  };
}

export async function requireSegment(db: Queryable, id: number): Promise<Segment> {
  const segment = await segmentStore.get(db, id);
  if (!segment) throw new NotFoundError(`Could not find segment ${id}`);
  return segment;
}

async function checkName(db: Queryable, name: string, exceptId?: number) {
  if (await segmentStore.nameTaken(db, name, exceptId))
    throw new NameExistsError(`A segment with the name ${name} already exists`);
}

async function checkProject(db: Queryable, project: string | null | undefined) {
  if (!project) return;
  if (!(await segmentStore.projectExists(db, project))) {
    throw ValidationError.field('project', `project ${project} does not exist`);
  }
}

export const segmentService = {
  async list(db: Queryable) {
    return { segments: [...(await segmentStore.list(db))] };
  },

  async validateName(db: Queryable, name: string) {
    await checkName(db, name);
  },

  async create({ tx, actor, emit }: Change, input: UpsertSegment): Promise<Segment> {
    await checkName(tx, input.name);
    await checkProject(tx, input.project);
    const constraints = await normalizeConstraints(tx, input.constraints, 'constraints');
    const id = await segmentStore.insert(tx, {
      name: input.name,
      description: input.description ?? null,
      project: input.project ?? null,
      constraints,
      createdBy: actor.createdBy,
    });
    const segment = await requireSegment(tx, id);
    emit({ type: 'segment-created', project: segment.project, data: eventState(segment) });
    return segment;
  },

  async update({ tx, emit }: Change, id: number, input: UpsertSegment) {
    const before = await requireSegment(tx, id);
    await checkName(tx, input.name, id);
    await checkProject(tx, input.project);
    const constraints = await normalizeConstraints(tx, input.constraints, 'constraints');
    await segmentStore.update(tx, id, {
      name: input.name,
      description: input.description ?? null,
      project: input.project ?? null,
      constraints,
    });
    const after = await requireSegment(tx, id);
    if (JSON.stringify(eventState(after)) !== JSON.stringify(eventState(before))) {
      emit({ type: 'segment-updated', project: after.project, data: eventState(after), preData: eventState(before) });
    }
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireSegment(tx, id);
    if ((before.usedInFeatures ?? 0) > 0) {
      throw new NameExistsError(
        `Segment ${before.name} is used by ${before.usedInFeatures} flag(s); remove it from their strategies first`,
      );
    }
    await segmentStore.delete(tx, id);
    emit({ type: 'segment-deleted', project: before.project, preData: eventState(before) });
  },

  /** The segments one strategy uses. */
  async ofStrategy(db: Queryable, strategyId: string) {
    return { segments: [...(await segmentStore.ofStrategy(db, strategyId))] };
  },

  async strategiesUsing(db: Queryable, id: number) {
    await requireSegment(db, id);
    const rows = await segmentStore.strategiesUsing(db, id);
    return { strategies: rows, changeRequestStrategies: [] };
  },
};
