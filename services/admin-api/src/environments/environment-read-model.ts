import type { Queryable } from '@bunting/platform';
import { environmentStore } from './environment-store.ts';

/** What the rest of admin-api may ask of environments. */
export const environmentReadModel = {
  exists: (db: Queryable, name: string) => environmentStore.exists(db, name),
  forProject: (db: Queryable, project: string) => environmentStore.listForProject(db, project),
  /** The names of the enabled environments, which a new project starts with. */
  async enabledNames(db: Queryable): Promise<string[]> {
    return (await environmentStore.list(db))
      .filter((environment) => environment.enabled)
      .map((environment) => environment.name);
  },
};
