import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import type { LegalValue } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

export const ContextFieldRow = z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number(),
  legalValues: z.array(z.object({ value: z.string(), description: z.string().optional() })),
  project: z.string().nullable(),
  createdAt: z.string(),
});
export type ContextFieldRow = z.infer<typeof ContextFieldRow>;
const Usage = z.object({ name: z.string(), features: z.number(), projects: z.number() });
const StrategyUse = z.object({
  id: z.string(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
});

const select = sql.fragment`select name, description, stickiness, sort_order as "sortOrder", legal_values as "legalValues",
  project, created_at as "createdAt" from admin.context_fields`;

type ContextFieldWrite = {
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
};

export const contextFieldStore = {
  get: (db: Queryable, name: string) => db.maybeOne(sql.type(ContextFieldRow)`${select} where name = ${name}`),
  list(db: Queryable, project?: string, includeRoot = false) {
    const only =
      project === undefined
        ? sql.fragment``
        : includeRoot
          ? sql.fragment`where project = ${project} or project is null`
          : sql.fragment`where project = ${project}`;
    return db.any(sql.type(ContextFieldRow)`${select} ${only} order by sort_order, name`);
  },
  exists: (db: Queryable, name: string) =>
    db.exists(sql.unsafe`select 1 from admin.context_fields where name = ${name}`),
  insert(db: WriteTx, field: ContextFieldWrite & { name: string; project: string | null }) {
    return db.query(sql.unsafe`insert into admin.context_fields (name, description, stickiness, sort_order, legal_values, project)
      values (${field.name}, ${field.description}, ${field.stickiness}, ${field.sortOrder}, ${sql.jsonb(field.legalValues)}, ${field.project})`);
  },
  update(db: WriteTx, name: string, field: ContextFieldWrite) {
    return db.query(sql.unsafe`update admin.context_fields set description = ${field.description}, stickiness = ${field.stickiness},
      sort_order = ${field.sortOrder}, legal_values = ${sql.jsonb(field.legalValues)} where name = ${name}`);
  },
  delete: (db: WriteTx, name: string) => db.query(sql.unsafe`delete from admin.context_fields where name = ${name}`),
  /** How many active flags, and in how many projects, use each context field in a strategy's constraints. */
  usage(db: Queryable, names: readonly string[]) {
    return db.any(sql.type(Usage)`
      select c ->> 'contextName' as name, count(distinct s.feature_name)::int as features, count(distinct f.project_id)::int as projects
      from admin.feature_strategies s join admin.features f on f.name = s.feature_name
      cross join lateral jsonb_array_elements(s.constraints) c
      where f.archived_at is null and c ->> 'contextName' = any(${sql.array(names, 'text')})
      group by 1`);
  },
  /** Strategies of active flags whose constraints use the field, optionally only in one project. */
  strategiesUsing(db: Queryable, name: string, project?: string) {
    const inProject = project === undefined ? sql.fragment`` : sql.fragment`and f.project_id = ${project}`;
    return db.any(sql.type(StrategyUse)`
      select s.id, s.feature_name as "featureName", f.project_id as "projectId", s.environment, s.strategy_name as "strategyName"
      from admin.feature_strategies s join admin.features f on f.name = s.feature_name
      where f.archived_at is null ${inProject} and exists (
        select 1 from jsonb_array_elements(s.constraints) c where c ->> 'contextName' = ${name})
      order by s.feature_name, s.environment, s.sort_order`);
  },
};
