import type { WriteTx } from '../events/write-tx.ts';
import { environmentStore } from './environment-store.ts';

/** Which environments a project has, and the strategy each gives flags switched on without one. */
export const projectEnvironments = {
  add: (db: WriteTx, project: string, environment: string) => environmentStore.addToProject(db, project, environment),
  remove: (db: WriteTx, project: string, environment: string) =>
    environmentStore.removeFromProject(db, project, environment),
  setDefaultStrategy: (db: WriteTx, project: string, environment: string, strategy: unknown) =>
    environmentStore.setDefaultStrategy(db, project, environment, strategy),
};
