import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import type { Constraint, StrategyVariant } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import type { StrategyWrite } from '../rules/strategy-rules.ts';

export const StrategyRow = z.object({
  id: z.string(),
  featureName: z.string(),
  environment: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  sortOrder: z.number(),
  constraints: z.array(z.any()),
  parameters: z.record(z.string(), z.string()),
  variants: z.array(z.any()),
  segments: z.array(z.number()),
  milestoneId: z.string().nullable(),
});
export type StrategyRow = Omit<z.infer<typeof StrategyRow>, 'constraints' | 'variants'> & {
  constraints: Constraint[];
  variants: StrategyVariant[];
};

const select = sql.fragment`
  select s.id, s.feature_name as "featureName", s.environment, s.strategy_name as name, s.title, s.disabled,
    s.sort_order as "sortOrder", s.constraints, s.parameters, s.variants, s.milestone_id as "milestoneId",
    coalesce((select array_agg(ss.segment_id order by ss.segment_id) from admin.feature_strategy_segments ss
      where ss.strategy_id = s.id), '{}') as segments
  from admin.feature_strategies s`;

// A release plan's milestone strategies come first, as SDKs are sent them.
const order = sql.fragment`order by (s.milestone_id is null), s.sort_order, s.created_at, s.id`;

export const strategyStore = {
  get(db: Queryable, id: string) {
    return db.maybeOne(sql.type(StrategyRow)`${select} where s.id = ${id}`) as Promise<StrategyRow | null>;
  },
  /** Every strategy serving the flag in the environment, a running milestone's included. */
  listFor(db: Queryable, featureName: string, environment: string) {
    return db.any(sql.type(StrategyRow)`${select}
      where s.feature_name = ${featureName} and s.environment = ${environment} ${order}`) as Promise<
      readonly StrategyRow[]
    >;
  },
  /** The flag's own strategies in the environment: what the admin API lists (a milestone's are edited through its plan). */
  listOwn(db: Queryable, featureName: string, environment: string) {
    return db.any(sql.type(StrategyRow)`${select}
      where s.feature_name = ${featureName} and s.environment = ${environment} and s.milestone_id is null ${order}`) as Promise<
      readonly StrategyRow[]
    >;
  },
  /** The strategies a milestone has running. */
  listOfMilestone(db: Queryable, milestoneId: string) {
    return db.any(sql.type(StrategyRow)`${select} where s.milestone_id = ${milestoneId} ${order}`) as Promise<
      readonly StrategyRow[]
    >;
  },
  /** The strategies of a running milestone in the flag environment. */
  listMilestone(db: Queryable, featureName: string, environment: string) {
    return db.any(sql.type(StrategyRow)`${select}
      where s.feature_name = ${featureName} and s.environment = ${environment} and s.milestone_id is not null ${order}`) as Promise<
      readonly StrategyRow[]
    >;
  },
  listForFeatures(db: Queryable, featureNames: readonly string[]) {
    return db.any(sql.type(StrategyRow)`${select}
      where s.feature_name = any(${sql.array(featureNames, 'text')}) ${order}`) as Promise<readonly StrategyRow[]>;
  },
  nextSortOrder(db: Queryable, featureName: string, environment: string) {
    return db.oneFirst(sql.type(z.object({ next: z.number() }))`
      select coalesce(max(sort_order) + 1, 0)::int as next from admin.feature_strategies
      where feature_name = ${featureName} and environment = ${environment}`);
  },
  async insert(
    db: WriteTx,
    id: string,
    featureName: string,
    environment: string,
    strategy: StrategyWrite,
    milestoneId: string | null = null,
  ) {
    await db.query(sql.unsafe`
      insert into admin.feature_strategies (id, feature_name, environment, strategy_name, title, disabled, sort_order,
        constraints, parameters, variants, milestone_id)
      values (${id}, ${featureName}, ${environment}, ${strategy.name}, ${strategy.title}, ${strategy.disabled},
        ${strategy.sortOrder}, ${sql.jsonb(strategy.constraints)}, ${sql.jsonb(strategy.parameters)}, ${sql.jsonb(strategy.variants)}, ${milestoneId})`);
    await strategyStore.setSegments(db, id, strategy.segments);
  },
  async update(db: WriteTx, id: string, strategy: StrategyWrite) {
    await db.query(sql.unsafe`
      update admin.feature_strategies set strategy_name = ${strategy.name}, title = ${strategy.title},
        disabled = ${strategy.disabled}, sort_order = ${strategy.sortOrder}, constraints = ${sql.jsonb(strategy.constraints)},
        parameters = ${sql.jsonb(strategy.parameters)}, variants = ${sql.jsonb(strategy.variants)}
      where id = ${id}`);
    await strategyStore.setSegments(db, id, strategy.segments);
  },
  async setSegments(db: WriteTx, id: string, segments: number[]) {
    await db.query(sql.unsafe`delete from admin.feature_strategy_segments where strategy_id = ${id}`);
    if (segments.length === 0) return;
    await db.query(sql.unsafe`
      insert into admin.feature_strategy_segments (strategy_id, segment_id)
      select ${id}, unnest(${sql.array(segments, 'int4')}) on conflict do nothing`);
  },
  setSortOrder(db: WriteTx, id: string, sortOrder: number) {
    return db.query(sql.unsafe`update admin.feature_strategies set sort_order = ${sortOrder} where id = ${id}`);
  },
  delete(db: WriteTx, id: string) {
    return db.query(sql.unsafe`delete from admin.feature_strategies where id = ${id}`);
  },
  /** Every strategy of one environment, with its segment links, copied into another under new ids (of the given projects, or all). */
  copyEnvironment(db: WriteTx, source: string, target: string, projects: readonly string[] | undefined) {
    const projectFilter =
      projects && projects.length > 0
        ? sql.fragment`and f.project_id = any(${sql.array([...projects], 'text')})`
        : sql.fragment``;
    // A CTE with a volatile function is computed once, so the new ids below are the same in every use.
    return db.query(sql.unsafe`
      with strategy_ids as (
        select s.id as old_id, gen_random_uuid()::text as new_id
        from admin.feature_strategies s join admin.features f on f.name = s.feature_name
        where s.environment = ${source} and s.milestone_id is null ${projectFilter}
      ), copied_strategies as (
        insert into admin.feature_strategies (id, feature_name, environment, strategy_name, title, disabled, sort_order, constraints, parameters, variants)
        select ids.new_id, s.feature_name, ${target}, s.strategy_name, s.title, s.disabled, s.sort_order, s.constraints, s.parameters, s.variants
        from strategy_ids ids join admin.feature_strategies s on s.id = ids.old_id
        returning id
      )
      insert into admin.feature_strategy_segments (strategy_id, segment_id)
      select ids.new_id, links.segment_id
      from strategy_ids ids join admin.feature_strategy_segments links on links.strategy_id = ids.old_id
      where ids.new_id in (select id from copied_strategies)`);
  },
};

/** A strategy as the API and events show it. */
export function strategyView(row: StrategyRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    disabled: row.disabled,
    featureName: row.featureName,
    sortOrder: row.sortOrder,
    segments: row.segments,
    constraints: row.constraints,
    variants: row.variants,
    parameters: row.parameters,
    // The release-plan milestone the strategy belongs to while it runs; null for the flag's own.
    milestoneId: row.milestoneId,
  };
}
