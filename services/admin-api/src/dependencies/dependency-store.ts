import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

const DependencyRow = z.object({
  child: z.string(),
  parent: z.string(),
  enabled: z.boolean(),
  variants: z.array(z.string()),
});
const Name = z.object({ name: z.string() });

/** Which flag depends on which (admin.dependencies): one level, a child has one parent. */
export const dependencyStore = {
  isChild: (db: Queryable, name: string) =>
    db.exists(sql.unsafe`select 1 from admin.dependencies where child = ${name}`),
  isParent: (db: Queryable, name: string) =>
    db.exists(sql.unsafe`select 1 from admin.dependencies where parent = ${name}`),
  async replace(db: WriteTx, child: string, parent: string, enabled: boolean, variants: string[]) {
    await db.query(sql.unsafe`delete from admin.dependencies where child = ${child}`);
    await db.query(sql.unsafe`insert into admin.dependencies (child, parent, enabled, variants)
      values (${child}, ${parent}, ${enabled}, ${sql.jsonb(variants)})`);
  },
  /** Whether a link was removed. */
  async remove(db: WriteTx, child: string, parent?: string): Promise<boolean> {
    const removed = await db.query(sql.unsafe`delete from admin.dependencies where child = ${child}
      ${parent !== undefined ? sql.fragment`and parent = ${parent}` : sql.fragment``}`);
    return removed.rowCount > 0;
  },
  parentsOf(db: Queryable, child: string) {
    return db.any(
      sql.type(DependencyRow)`select child, parent, enabled, variants from admin.dependencies where child = ${child}`,
    );
  },
  /** Every link touching the flags, as parent or as child. */
  linksOf(db: Queryable, names: readonly string[]) {
    return db.any(sql.type(DependencyRow)`
      select child, parent, enabled, variants from admin.dependencies
      where child = any(${sql.array(names, 'text')}) or parent = any(${sql.array(names, 'text')}) order by parent, child`);
  },
  /** Flags of the project that could become `child`'s parent: active, not itself, not a child. */
  parentOptions(db: Queryable, project: string, child: string) {
    return db.anyFirst(sql.type(Name)`
      select name from admin.features f where f.project_id = ${project} and f.archived_at is null and f.name <> ${child}
        and not exists (select 1 from admin.dependencies d where d.child = f.name) order by name`);
  },
  projectHasDependencies(db: Queryable, project: string) {
    return db.exists(sql.unsafe`select 1 from admin.dependencies d join admin.features f on f.name = d.child
      where f.project_id = ${project} and f.archived_at is null`);
  },
  /** Every variant name the flag has in any environment or strategy. */
  variantNames(db: Queryable, featureName: string) {
    return db.anyFirst(sql.type(Name)`
      select distinct v ->> 'name' as name from (
        select jsonb_array_elements(variants) as v from admin.feature_environments where feature_name = ${featureName}
        union all
        select jsonb_array_elements(variants) from admin.feature_strategies where feature_name = ${featureName}
      ) variants where v ->> 'name' is not null order by 1`);
  },
  /** Of the flags, those that are parents of active flags outside them. */
  parentsOfOthers(db: Queryable, names: readonly string[]) {
    return db.anyFirst(sql.type(
      Name,
    )`select distinct d.parent as name from admin.dependencies d join admin.features f on f.name = d.child
      where d.parent = any(${sql.array(names, 'text')}) and not d.child = any(${sql.array(names, 'text')}) and f.archived_at is null order by 1`);
  },
  anyLink(db: Queryable, names: readonly string[]) {
    return db.exists(sql.unsafe`select 1 from admin.dependencies
      where parent = any(${sql.array(names, 'text')}) or child = any(${sql.array(names, 'text')})`);
  },
};
