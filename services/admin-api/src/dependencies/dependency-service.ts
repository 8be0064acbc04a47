import { NotFoundError, OperationRefused, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { findFeature, requireFeature } from '../feature-state/feature-lookup.ts';
import { dependencyStore } from './dependency-store.ts';

function dependencyView(row: { parent: string; enabled: boolean; variants: string[] }) {
  return { feature: row.parent, enabled: row.enabled, ...(row.variants.length > 0 ? { variants: row.variants } : {}) };
}

/**
 * Dependencies are one level deep, as in Unleash: a child has one parent in its own project, a parent has no
 * parent of its own, and a child cannot also be a parent.
 */
export const dependencyService = {
  async add(
    change: Change,
    project: string,
    child: string,
    input: { feature: string; enabled?: boolean | undefined; variants?: string[] | undefined },
  ) {
    const { tx } = change;
    await requireFeature(tx, project, child, { forWrite: true });
    // Unleash's answers: an impossible link is a refused operation (403), a parent of another project not found (404).
    if (input.feature === child) throw new OperationRefused('A flag cannot depend on itself');
    const parent = await findFeature(tx, input.feature);
    if (!parent || parent.archivedAt !== null) throw new OperationRefused(`No active flag ${input.feature} exists`);
    if (parent.project !== project)
      throw new NotFoundError(
        `Cannot add the dependency: the parent and the child must both belong to project ${project}`,
      );
    // One level only: Unleash refuses a chain with 403.
    if (await dependencyStore.isChild(tx, input.feature)) {
      throw new OperationRefused(
        `Transitive dependency: ${input.feature} depends on another flag and cannot be a parent`,
      );
    }
    if (await dependencyStore.isParent(tx, child)) {
      throw new OperationRefused(`Transitive dependency: other flags depend on ${child}, so it cannot depend on one`);
    }
    const enabled = input.enabled ?? true;
    const variants = enabled ? (input.variants ?? []) : [];
    await dependencyStore.replace(tx, child, input.feature, enabled, variants);
    const data = dependencyView({ parent: input.feature, enabled, variants });
    change.emit({ type: 'feature-dependency-added', project, featureName: child, data });
    return data;
  },

  async remove(change: Change, project: string, child: string, parent: string) {
    await requireFeature(change.tx, project, child, { forWrite: true });
    if (await dependencyStore.remove(change.tx, child, parent))
      change.emit({ type: 'feature-dependency-removed', project, featureName: child, data: { feature: parent } });
  },

  async removeAll(change: Change, project: string, child: string) {
    await requireFeature(change.tx, project, child, { forWrite: true });
    if (await dependencyStore.remove(change.tx, child))
      change.emit({ type: 'feature-dependencies-removed', project, featureName: child });
  },

  async parents(db: Queryable, project: string, child: string) {
    await requireFeature(db, project, child, { allowArchived: true });
    return (await dependencyStore.parentsOf(db, child)).map(dependencyView);
  },

  /** The flags of the project that could become this flag's parent. */
  async parentOptions(db: Queryable, project: string, child: string) {
    await requireFeature(db, project, child, { allowArchived: true });
    return dependencyStore.parentOptions(db, project, child);
  },

  /** Whether any flag of the project depends on another (the UI shows dependency columns only then). */
  projectHasDependencies: (db: Queryable, project: string) => dependencyStore.projectHasDependencies(db, project),
  /** The variants a child may require of a parent: every variant name the parent has in any environment or strategy. */
  parentVariants: (db: Queryable, parent: string) => dependencyStore.variantNames(db, parent),
  /** Of the flags, those active flags outside them depend on (which may not go without them). */
  parentsOfOthers: (db: Queryable, names: readonly string[]) => dependencyStore.parentsOfOthers(db, names),

  /** A flag going to the archive depends on nothing any more, as in Unleash. */
  async detach(change: Change, project: string, name: string) {
    if (await dependencyStore.remove(change.tx, name))
      change.emit({ type: 'feature-dependencies-removed', project, featureName: name });
  },

  /** Before archiving flags: which of them are parents of flags not being archived, and whether any link would go. */
  async archiveImpact(db: Queryable, names: readonly string[]) {
    const [parentsWithChildFeatures, hasDeletedDependencies] = await Promise.all([
      dependencyStore.parentsOfOthers(db, names),
      dependencyStore.anyLink(db, names),
    ]);
    return { parentsWithChildFeatures, hasDeletedDependencies };
  },
};
