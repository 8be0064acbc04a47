import type { Queryable } from '@bunting/platform';
import { projectStore } from './project-store.ts';

/** When each project last changed: the unit of work moves it on for every project its events name. */
export const touchProjects = (db: Queryable, projects: readonly string[]) => projectStore.touch(db, projects);
