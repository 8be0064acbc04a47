import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import type { Constraint, Segment } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

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
const StrategyUse = z.object({
  id: z.string(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
});

const select = sql.fragment`
  select s.id, s.name, s.description, s.project, s.constraints, s.created_by as "createdBy", s.created_at as "createdAt",
    (select count(distinct fs.feature_name) from admin.feature_strategy_segments ss
      join admin.feature_strategies fs on fs.id = ss.strategy_id where ss.segment_id = s.id)::int as "usedInFeatures",
    (select count(distinct f.project_id) from admin.feature_strategy_segments ss
      join admin.feature_strategies fs on fs.id = ss.strategy_id join admin.features f on f.name = fs.feature_name
      where ss.segment_id = s.id)::int as "usedInProjects"
  from admin.segments s`;

type SegmentWrite = { name: string; description: string | null; project: string | null; constraints: Constraint[] };

export const segmentStore = {
  async list(db: Queryable) {
    return (await db.any(sql.type(SegmentRow)`${select} order by s.id`)) as readonly Segment[];
  },
  async get(db: Queryable, id: number) {
    return (await db.maybeOne(sql.type(SegmentRow)`${select} where s.id = ${id}`)) as Segment | null;
  },
  async ofStrategy(db: Queryable, strategyId: string) {
    return (await db.any(sql.type(SegmentRow)`${select}
      where s.id in (select segment_id from admin.feature_strategy_segments where strategy_id = ${strategyId}) order by s.id`)) as readonly Segment[];
  },
  nameTaken(db: Queryable, name: string, exceptId?: number) {
    return db.exists(sql.unsafe`select 1 from admin.segments where name = ${name}
      ${exceptId !== undefined ? sql.fragment`and id <> ${exceptId}` : sql.fragment``}`);
  },
  projectExists(db: Queryable, project: string) {
    return db.exists(sql.unsafe`select 1 from admin.projects where id = ${project}`);
  },
  insert(db: WriteTx, segment: SegmentWrite & { createdBy: string }) {
    return db.oneFirst(sql.type(z.object({ id: z.number() }))`
      insert into admin.segments (name, description, project, constraints, created_by)
      values (${segment.name}, ${segment.description}, ${segment.project}, ${sql.jsonb(segment.constraints)}, ${segment.createdBy})
      returning id`);
  },
  update(db: WriteTx, id: number, segment: SegmentWrite) {
    return db.query(sql.unsafe`update admin.segments set name = ${segment.name}, description = ${segment.description},
      project = ${segment.project}, constraints = ${sql.jsonb(segment.constraints)} where id = ${id}`);
  },
  delete(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.segments where id = ${id}`);
  },
  /** Every (flag, segment name) pair where one of the flag's strategies uses the segment. */
  usesByFeature(db: Queryable) {
    return db.any(sql.type(z.object({ featureName: z.string(), name: z.string() }))`
      select distinct fs.feature_name as "featureName", s.name from admin.feature_strategy_segments ss
      join admin.feature_strategies fs on fs.id = ss.strategy_id join admin.segments s on s.id = ss.segment_id`);
  },
  strategiesUsing(db: Queryable, id: number) {
    return db.any(sql.type(StrategyUse)`
      select fs.id, fs.feature_name as "featureName", f.project_id as "projectId", fs.environment, fs.strategy_name as "strategyName"
      from admin.feature_strategy_segments ss join admin.feature_strategies fs on fs.id = ss.strategy_id
      join admin.features f on f.name = fs.feature_name where ss.segment_id = ${id} order by fs.feature_name`);
  },
};
