import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

export const TagTypeRow = z.object({
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
});
export type TagTypeRow = z.infer<typeof TagTypeRow>;
export const TagRow = z.object({ value: z.string(), type: z.string() });
/** A tag as answered: with its tag type's colour. */
const ColoredTagRow = TagRow.extend({ color: z.string().nullable() });
export type TagRow = z.infer<typeof TagRow>;

export const tagTypeStore = {
  list(db: Queryable) {
    return db.any(sql.type(TagTypeRow)`select name, description, icon, color from admin.tag_types order by name`);
  },
  get(db: Queryable, name: string) {
    return db.maybeOne(
      sql.type(TagTypeRow)`select name, description, icon, color from admin.tag_types where name = ${name}`,
    );
  },
  insert(db: WriteTx, tagType: TagTypeRow) {
    return db.query(sql.unsafe`insert into admin.tag_types (name, description, icon, color)
      values (${tagType.name}, ${tagType.description}, ${tagType.icon}, ${tagType.color})`);
  },
  update(db: WriteTx, tagType: TagTypeRow) {
    return db.query(sql.unsafe`update admin.tag_types set description = ${tagType.description}, icon = ${tagType.icon},
      color = ${tagType.color} where name = ${tagType.name}`);
  },
  delete(db: WriteTx, name: string) {
    return db.query(sql.unsafe`delete from admin.tag_types where name = ${name}`);
  },
};

export const tagStore = {
  async list(db: Queryable, type?: string) {
    return [
      ...(await db.any(sql.type(ColoredTagRow)`select t.value, t.type, tt.color from admin.tags t
      left join admin.tag_types tt on tt.name = t.type
      ${type ? sql.fragment`where t.type = ${type}` : sql.fragment``} order by t.type, t.value`)),
    ];
  },
  get(db: Queryable, tag: TagRow) {
    return db.maybeOne(sql.type(ColoredTagRow)`select t.value, t.type, tt.color from admin.tags t
      left join admin.tag_types tt on tt.name = t.type where t.type = ${tag.type} and t.value = ${tag.value}`);
  },
  exists(db: Queryable, tag: TagRow) {
    return db.exists(sql.unsafe`select 1 from admin.tags where type = ${tag.type} and value = ${tag.value}`);
  },
  /** Whether the tag was new (two requests creating one tag at once: only one finds it new). */
  async insert(db: WriteTx, tag: TagRow): Promise<boolean> {
    return (
      (
        await db.query(
          sql.unsafe`insert into admin.tags (type, value) values (${tag.type}, ${tag.value}) on conflict do nothing`,
        )
      ).rowCount > 0
    );
  },
  delete(db: WriteTx, tag: TagRow) {
    return db.query(sql.unsafe`delete from admin.tags where type = ${tag.type} and value = ${tag.value}`);
  },
  async forFeature(db: Queryable, featureName: string) {
    return [
      ...(await db.any(sql.type(
        ColoredTagRow,
      )`select ft.tag_value as value, ft.tag_type as type, tt.color from admin.feature_tags ft
      left join admin.tag_types tt on tt.name = ft.tag_type
      where ft.feature_name = ${featureName} order by ft.created_at, ft.tag_type, ft.tag_value`)),
    ];
  },
  forFeatures(db: Queryable, featureNames: readonly string[]) {
    return db.any(sql.type(ColoredTagRow.extend({ featureName: z.string() }))`
      select ft.feature_name as "featureName", ft.tag_type as type, ft.tag_value as value, tt.color from admin.feature_tags ft
      left join admin.tag_types tt on tt.name = ft.tag_type
      where ft.feature_name = any(${sql.array(featureNames, 'text')}) order by ft.created_at, ft.tag_type, ft.tag_value`);
  },
  isAttached(db: Queryable, featureName: string, tag: TagRow) {
    return db.exists(sql.unsafe`select 1 from admin.feature_tags
      where feature_name = ${featureName} and tag_type = ${tag.type} and tag_value = ${tag.value}`);
  },
  /** Whether the flag did not carry the tag yet. */
  async attach(db: WriteTx, featureName: string, tag: TagRow, userId: number | null): Promise<boolean> {
    return (
      (
        await db.query(sql.unsafe`insert into admin.feature_tags (feature_name, tag_type, tag_value, created_by_user_id)
      values (${featureName}, ${tag.type}, ${tag.value}, ${userId}) on conflict do nothing`)
      ).rowCount > 0
    );
  },
  detach(db: WriteTx, featureName: string, tag: TagRow) {
    return db.query(sql.unsafe`delete from admin.feature_tags
      where feature_name = ${featureName} and tag_type = ${tag.type} and tag_value = ${tag.value}`);
  },
};
