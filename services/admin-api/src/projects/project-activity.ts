import type { WriteTx } from '../events/write-tx.ts';
import { projectStore } from './project-store.ts';

/** When each project last changed: the unit of work moves it on for every project its events name. */
export const touchProjects = (db: WriteTx, projects: readonly string[]) => projectStore.touch(db, projects);
