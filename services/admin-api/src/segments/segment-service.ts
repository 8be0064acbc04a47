import { z } from 'zod';
import type { Segment, UpsertSegment } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { normalizeConstraints } from '../strategies/constraint-rules.ts';

const SegmentRow = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable(),
  constraints: z.array(z.any()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  usedInFeatures: z.number(),
  usedInProjects: z.number(),
});

const select = sql.fragment`
  select s.id, s.name, s.description, s.project, s.constraints, s.created_by as "createdBy", s.created_at as "createdAt",
    (select count(distinct fs.feature_name) from admin.feature_strategy_segments ss
      join admin.feature_strategies fs on fs.id = ss.strategy_id where ss.segment_id = s.id)::int as "usedInFeatures",
    (select count(distinct f.project_id) from admin.feature_strategy_segments ss
      join admin.feature_strategies fs on fs.id = ss.strategy_id join admin.features f on f.name = fs.feature_name
      where ss.segment_id = s.id)::int as "usedInProjects"
  from admin.segments s`;

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
  const segment = await db.maybeOne(sql.type(SegmentRow)`${select} where s.id = ${id}`);
  if (!segment) throw new NotFoundError(`Could not find segment ${id}`);
  return segment as Segment;
}

async function checkName(db: Queryable, name: string, exceptId?: number) {
  const taken = await db.exists(sql.unsafe`select 1 from admin.segments where name = ${name}
    ${exceptId !== undefined ? sql.fragment`and id <> ${exceptId}` : sql.fragment``}`);
  if (taken) throw new NameExistsError(`A segment with the name ${name} already exists`);
}

async function checkProject(db: Queryable, project: string | null | undefined) {
  if (!project) return;
  if (!(await db.exists(sql.unsafe`select 1 from admin.projects where id = ${project}`))) {
    throw ValidationError.field('project', `project ${project} does not exist`);
  }
}

export const segmentService = {
  async list(db: Queryable) {
    return { segments: (await db.any(sql.type(SegmentRow)`${select} order by s.id`)) as Segment[] };
  },

  async validateName(db: Queryable, name: string) {
    await checkName(db, name);
  },

  async create({ tx, actor, emit }: Change, input: UpsertSegment): Promise<Segment> {
    await checkName(tx, input.name);
    await checkProject(tx, input.project);
    const constraints = await normalizeConstraints(tx, input.constraints, 'constraints');
    const id = await tx.oneFirst(sql.type(z.object({ id: z.number() }))`
      insert into admin.segments (name, description, project, constraints, created_by)
      values (${input.name}, ${input.description ?? null}, ${input.project ?? null}, ${sql.jsonb(constraints)}, ${actor.createdBy})
      returning id`);
    const segment = await requireSegment(tx, id);
    emit({ type: 'segment-created', project: segment.project, data: eventState(segment) });
    return segment;
  },

  async update({ tx, emit }: Change, id: number, input: UpsertSegment) {
    const before = await requireSegment(tx, id);
    await checkName(tx, input.name, id);
    await checkProject(tx, input.project);
    const constraints = await normalizeConstraints(tx, input.constraints, 'constraints');
    await tx.query(sql.unsafe`update admin.segments set name = ${input.name}, description = ${input.description ?? null},
      project = ${input.project ?? null}, constraints = ${sql.jsonb(constraints)} where id = ${id}`);
    const after = await requireSegment(tx, id);
    if (JSON.stringify(eventState(after)) !== JSON.stringify(eventState(before))) {
      emit({ type: 'segment-updated', project: after.project, data: eventState(after), preData: eventState(before) });
    }
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireSegment(tx, id);
    if ((before.usedInFeatures ?? 0) > 0) {
      throw new NameExistsError(`Segment ${before.name} is used by ${before.usedInFeatures} flag(s); remove it from their strategies first`);
    }
    await tx.query(sql.unsafe`delete from admin.segments where id = ${id}`);
    emit({ type: 'segment-deleted', project: before.project, preData: eventState(before) });
  },

  /** The segments one strategy uses. */
  async ofStrategy(db: Queryable, strategyId: string) {
    return { segments: (await db.any(sql.type(SegmentRow)`${select}
      where s.id in (select segment_id from admin.feature_strategy_segments where strategy_id = ${strategyId}) order by s.id`)) as Segment[] };
  },

  async strategiesUsing(db: Queryable, id: number) {
    await requireSegment(db, id);
    const rows = await db.any(sql.type(z.object({ id: z.string(), featureName: z.string(), projectId: z.string(), environment: z.string(), strategyName: z.string() }))`
      select fs.id, fs.feature_name as "featureName", f.project_id as "projectId", fs.environment, fs.strategy_name as "strategyName"
      from admin.feature_strategy_segments ss join admin.feature_strategies fs on fs.id = ss.strategy_id
      join admin.features f on f.name = fs.feature_name where ss.segment_id = ${id} order by fs.feature_name`);
    return { strategies: rows, changeRequestStrategies: [] };
  },
};
