import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const FeatureRow = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  project: z.string(),
  stale: z.boolean(),
  impressionData: z.boolean(),
  enabled: z.boolean(),
  variants: z.array(z.any()),
});
const StrategyRow = z.object({
  featureName: z.string(),
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  sortOrder: z.number(),
  constraints: z.array(z.any()),
  parameters: z.record(z.string(), z.string()),
  variants: z.array(z.any()),
  segments: z.array(z.number()),
});
const DependencyRow = z.object({
  child: z.string(),
  parent: z.string(),
  enabled: z.boolean(),
  variants: z.array(z.string()),
});
const SegmentRow = z.object({ id: z.number(), name: z.string(), constraints: z.array(z.any()) });
const TagRow = z.object({ featureName: z.string(), type: z.string(), value: z.string() });

/** Only the named flags, or every flag when no names are given. */
const named = (column: ReturnType<typeof sql.identifier>, names: readonly string[] | undefined) =>
  names === undefined ? sql.fragment`` : sql.fragment`and ${column} = any(${sql.array([...names], 'text')})`;

/**
 * One environment's configuration as the SDK edge needs it, in five queries whatever the number of flags; each
 * query can be narrowed to some flags by name.
 */
export const snapshotStore = {
  /** Every active flag of every project that has the environment, with its state there. */
  features: (db: Queryable, environment: string, names?: readonly string[]) =>
    db.any(sql.type(FeatureRow)`
      select f.name, f.type, f.description, f.project_id as project, f.stale, f.impression_data as "impressionData",
        coalesce(fe.enabled, false) as enabled, coalesce(fe.variants, '[]') as variants
      from admin.features f
      join admin.project_environments pe on pe.project_id = f.project_id and pe.environment = ${environment}
      left join admin.feature_environments fe on fe.feature_name = f.name and fe.environment = ${environment}
      where f.archived_at is null ${named(sql.identifier(['f', 'name']), names)}
      -- Byte order, whatever the database's collation: the edge places a flag it reads alone by the same order.
      order by f.name collate "C"`),
  /** Enabled strategies of active flags in the environment (disabled ones are never sent to SDKs), in order. */
  strategies: (db: Queryable, environment: string, names?: readonly string[]) =>
    db.any(sql.type(StrategyRow)`
      select s.feature_name as "featureName", s.id, s.strategy_name as name, s.title, s.sort_order as "sortOrder",
        s.constraints, s.parameters, s.variants,
        coalesce((select array_agg(ss.segment_id order by ss.segment_id) from admin.feature_strategy_segments ss
          where ss.strategy_id = s.id), '{}') as segments
      from admin.feature_strategies s join admin.features f on f.name = s.feature_name
      where s.environment = ${environment} and not s.disabled and f.archived_at is null ${named(sql.identifier(['s', 'feature_name']), names)}
      -- A running release-plan milestone's strategies first, as Unleash sends them.
      order by s.feature_name, (s.milestone_id is null), s.sort_order, s.created_at, s.id`),
  dependencies: (db: Queryable, names?: readonly string[]) =>
    db.any(sql.type(DependencyRow)`
      select d.child, d.parent, d.enabled, d.variants from admin.dependencies d
      join admin.features f on f.name = d.child where f.archived_at is null ${named(sql.identifier(['d', 'child']), names)}
      order by d.child, d.parent`),
  segments: (db: Queryable) =>
    db.any(sql.type(SegmentRow)`select id, name, constraints from admin.segments order by id`),
  tags: (db: Queryable, names?: readonly string[]) =>
    db.any(sql.type(TagRow)`select t.feature_name as "featureName", t.tag_type as type, t.tag_value as value
      from admin.feature_tags t join admin.features f on f.name = t.feature_name where f.archived_at is null
      ${named(sql.identifier(['t', 'feature_name']), names)}
      order by t.feature_name, t.tag_type, t.tag_value`),
};
