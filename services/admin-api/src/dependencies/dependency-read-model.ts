import type { Queryable } from '@bunting/platform';
import { dependencyStore } from './dependency-store.ts';

/** What the rest of admin-api may ask of dependencies between flags. */
export const dependencyReadModel = {
  /** Every link touching the flags, as parent or as child. */
  linksOf: (db: Queryable, names: readonly string[]) => dependencyStore.linksOf(db, names),
};
