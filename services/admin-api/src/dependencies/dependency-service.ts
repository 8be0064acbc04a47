import { z } from 'zod';
import { ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireFeature } from '../features/feature-lookup.ts';
import { featureStore } from '../features/feature-store.ts';

const DependencyRow = z.object({ parent: z.string(), enabled: z.boolean(), variants: z.array(z.string()) });

function dependencyView(row: { parent: string; enabled: boolean; variants: string[] }) {
  return { feature: row.parent, enabled: row.enabled, ...(row.variants.length > 0 ? { variants: row.variants } : {}) };
}

/**
 * Dependencies are one level deep, as in Unleash: a child has one parent in its own project, a parent has no
 * parent of its own, and a child cannot also be a parent.
 */
export const dependencyService = {
  async add(change: Change, project: string, child: string, input: { feature: string; enabled?: boolean | undefined; variants?: string[] | undefined }) {
    const { tx } = change;
    await requireFeature(tx, project, child, { forWrite: true });
    if (input.feature === child) throw ValidationError.field('feature', 'a flag cannot depend on itself');
    const parent = await featureStore.get(tx, input.feature);
    if (!parent || parent.project !== project) throw ValidationError.field('feature', `parent flag ${input.feature} does not exist in project ${project}`);
    if (parent.archivedAt !== null) throw ValidationError.field('feature', `parent flag ${input.feature} is archived`);
    if (await tx.exists(sql.unsafe`select 1 from admin.dependencies where child = ${input.feature}`)) {
      throw ValidationError.field('feature', `${input.feature} depends on another flag and cannot be a parent`);
    }
    if (await tx.exists(sql.unsafe`select 1 from admin.dependencies where parent = ${child}`)) {
      throw ValidationError.field('feature', `${child} is a parent of other flags and cannot depend on one`);
    }
    const enabled = input.enabled ?? true;
    const variants = enabled ? input.variants ?? [] : [];
    await tx.query(sql.unsafe`delete from admin.dependencies where child = ${child}`);
    await tx.query(sql.unsafe`insert into admin.dependencies (child, parent, enabled, variants)
      values (${child}, ${input.feature}, ${enabled}, ${sql.jsonb(variants)})`);
    const data = dependencyView({ parent: input.feature, enabled, variants });
    change.emit({ type: 'feature-dependency-added', project, featureName: child, data });
    return data;
  },

  async remove(change: Change, project: string, child: string, parent: string) {
    await requireFeature(change.tx, project, child, { forWrite: true });
    const removed = await change.tx.query(sql.unsafe`delete from admin.dependencies where child = ${child} and parent = ${parent}`);
    if (removed.rowCount > 0) change.emit({ type: 'feature-dependency-removed', project, featureName: child, data: { feature: parent } });
  },

  async removeAll(change: Change, project: string, child: string) {
    await requireFeature(change.tx, project, child, { forWrite: true });
    const removed = await change.tx.query(sql.unsafe`delete from admin.dependencies where child = ${child}`);
    if (removed.rowCount > 0) change.emit({ type: 'feature-dependencies-removed', project, featureName: child });
  },

  async parents(db: Queryable, project: string, child: string) {
    await requireFeature(db, project, child, { allowArchived: true });
    const rows = await db.any(sql.type(DependencyRow)`select parent, enabled, variants from admin.dependencies where child = ${child}`);
    return rows.map(dependencyView);
  },

  /** The flags of the project that could become this flag's parent. */
  async parentOptions(db: Queryable, project: string, child: string) {
    await requireFeature(db, project, child, { allowArchived: true });
    return db.anyFirst(sql.type(z.object({ name: z.string() }))`
      select name from admin.features f where f.project_id = ${project} and f.archived_at is null and f.name <> ${child}
        and not exists (select 1 from admin.dependencies d where d.child = f.name) order by name`);
  },
};
