import { z } from 'zod';
import type { ExportQuery } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const Name = z.object({ name: z.string() });
const ExistingFeature = z.object({ name: z.string(), project: z.string(), archived: z.boolean() });
const StrategyDefinition = z.object({ name: z.string(), builtIn: z.boolean() });
const ContextFieldValues = z.object({
  name: z.string(),
  legalValues: z.array(z.object({ value: z.string() }).loose()),
});
const SegmentName = z.object({ id: z.number(), name: z.string() });
const TagType = z.object({ name: z.string(), description: z.string().nullable(), icon: z.string().nullable() });

/** What exporting and importing flags look up across the instance's configuration. */
export const importStore = {
  /** The active flags an export covers: named ones, those of a project, or those with a tag ("type:value", or a value of any type). */
  exportedNames(db: Queryable, query: ExportQuery) {
    const conditions = [];
    if (query.features !== undefined) conditions.push(sql.fragment`name = any(${sql.array(query.features, 'text')})`);
    if (query.project !== undefined) conditions.push(sql.fragment`project_id = ${query.project}`);
    if (query.tag !== undefined) {
      const colon = query.tag.indexOf(':');
      const tagged =
        colon > 0
          ? sql.fragment`t.tag_type = ${query.tag.slice(0, colon)} and t.tag_value = ${query.tag.slice(colon + 1)}`
          : sql.fragment`t.tag_value = ${query.tag}`;
      conditions.push(
        sql.fragment`exists (select 1 from admin.feature_tags t where t.feature_name = admin.features.name and ${tagged})`,
      );
    }
    return db.anyFirst(sql.type(Name)`select name from admin.features
      where archived_at is null and ${sql.join(conditions, sql.fragment` and `)}`);
  },
  segmentsByIds: (db: Queryable, ids: readonly number[]) =>
    db.any(
      sql.type(SegmentName)`select id, name from admin.segments where id = any(${sql.array(ids, 'int4')}) order by id`,
    ),
  segmentsByNames: (db: Queryable, names: readonly string[]) =>
    db.any(sql.type(SegmentName)`select id, name from admin.segments where name = any(${sql.array(names, 'text')})`),
  tagTypes: (db: Queryable, names: readonly string[]) =>
    db.any(
      sql.type(
        TagType,
      )`select name, description, icon from admin.tag_types where name = any(${sql.array(names, 'text')}) order by name`,
    ),
  features: (db: Queryable, names: readonly string[]) =>
    db.any(sql.type(ExistingFeature)`select name, project_id as project, archived_at is not null as archived
      from admin.features where name = any(${sql.array(names, 'text')})`),
  strategyDefinitions: (db: Queryable, names: readonly string[]) =>
    db.any(
      sql.type(
        StrategyDefinition,
      )`select name, built_in as "builtIn" from admin.strategies where name = any(${sql.array(names, 'text')})`,
    ),
  contextFields: (db: Queryable, names: readonly string[]) =>
    db.any(
      sql.type(
        ContextFieldValues,
      )`select name, legal_values as "legalValues" from admin.context_fields where name = any(${sql.array(names, 'text')})`,
    ),
  activeFlagsAmong: (db: Queryable, project: string, names: readonly string[]) =>
    db.anyFirst(
      sql.type(
        Name,
      )`select name from admin.features where project_id = ${project} and archived_at is null and name = any(${sql.array(names, 'text')})`,
    ),
};
