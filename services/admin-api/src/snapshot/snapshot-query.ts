import { z } from 'zod';
import type { ClientFeature, EnvironmentSnapshot } from '@bunting/contracts';
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
const DependencyRow = z.object({ child: z.string(), parent: z.string(), enabled: z.boolean(), variants: z.array(z.string()) });
const SegmentRow = z.object({ id: z.number(), name: z.string(), constraints: z.array(z.any()) });
const TagRow = z.object({ featureName: z.string(), type: z.string(), value: z.string() });

/**
 * One environment's configuration for the SDK edge: every non-archived feature of every project that has the
 * environment, its enabled strategies (disabled ones are never sent to SDKs), variants and dependencies, and
 * every segment. Four queries, whatever the number of features.
 */
export async function loadEnvironmentSnapshot(db: Queryable, environment: string): Promise<EnvironmentSnapshot> {
  const [features, strategies, dependencies, segments, tags] = await Promise.all([
    db.any(sql.type(FeatureRow)`
      select f.name, f.type, f.description, f.project_id as project, f.stale, f.impression_data as "impressionData",
        coalesce(fe.enabled, false) as enabled, coalesce(fe.variants, '[]') as variants
      from admin.features f
      join admin.project_environments pe on pe.project_id = f.project_id and pe.environment = ${environment}
      left join admin.feature_environments fe on fe.feature_name = f.name and fe.environment = ${environment}
      where f.archived_at is null order by f.name`),
    db.any(sql.type(StrategyRow)`
      select s.feature_name as "featureName", s.id, s.strategy_name as name, s.title, s.sort_order as "sortOrder",
        s.constraints, s.parameters, s.variants,
        coalesce((select array_agg(ss.segment_id order by ss.segment_id) from admin.feature_strategy_segments ss
          where ss.strategy_id = s.id), '{}') as segments
      from admin.feature_strategies s join admin.features f on f.name = s.feature_name
      where s.environment = ${environment} and not s.disabled and f.archived_at is null
      order by s.feature_name, s.sort_order, s.created_at, s.id`),
    db.any(sql.type(DependencyRow)`
      select d.child, d.parent, d.enabled, d.variants from admin.dependencies d
      join admin.features f on f.name = d.child where f.archived_at is null order by d.child, d.parent`),
    db.any(sql.type(SegmentRow)`select id, name, constraints from admin.segments order by id`),
    db.any(sql.type(TagRow)`select t.feature_name as "featureName", t.tag_type as type, t.tag_value as value
      from admin.feature_tags t join admin.features f on f.name = t.feature_name where f.archived_at is null
      order by t.feature_name, t.tag_type, t.tag_value`),
  ]);
  const tagsByFeature = new Map<string, { type: string; value: string }[]>();
  for (const row of tags) tagsByFeature.set(row.featureName, [...(tagsByFeature.get(row.featureName) ?? []), { type: row.type, value: row.value }]);

  const strategiesByFeature = new Map<string, ClientFeature['strategies'] & object>();
  for (const row of strategies) {
    const list = strategiesByFeature.get(row.featureName) ?? [];
    list.push({
      id: row.id,
      name: row.name,
      title: row.title,
      sortOrder: row.sortOrder,
      constraints: row.constraints,
      parameters: row.parameters,
      segments: row.segments,
      variants: row.variants,
    });
    strategiesByFeature.set(row.featureName, list);
  }
  const dependenciesByChild = new Map<string, NonNullable<ClientFeature['dependencies']>>();
  for (const row of dependencies) {
    const list = dependenciesByChild.get(row.child) ?? [];
    list.push({ feature: row.parent, enabled: row.enabled, ...(row.variants.length > 0 ? { variants: row.variants } : {}) });
    dependenciesByChild.set(row.child, list);
  }

  return {
    environment,
    features: features.map((row) => ({
      name: row.name,
      type: row.type,
      description: row.description,
      project: row.project,
      enabled: row.enabled,
      stale: row.stale,
      impressionData: row.impressionData,
      strategies: strategiesByFeature.get(row.name) ?? [],
      variants: row.variants,
      ...(dependenciesByChild.has(row.name) ? { dependencies: dependenciesByChild.get(row.name)! } : {}),
      ...(tagsByFeature.has(row.name) ? { tags: tagsByFeature.get(row.name)! } : {}),
    })),
    segments: segments.map((row) => ({ id: row.id, name: row.name, constraints: row.constraints })),
  };
}
