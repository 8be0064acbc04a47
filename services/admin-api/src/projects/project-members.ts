import { projectStore } from './project-store.ts';
import type { WriteTx } from '../events/write-tx.ts';

/** Who holds which roles in a project: a project's members are part of it, changed through here by project access. */
export const projectMembers = {
  grant: (db: WriteTx, subject: 'user' | 'group', project: string, id: number, roleId: number) =>
    projectStore.grant(db, subject, project, id, roleId),
  revokeAll: (db: WriteTx, subject: 'user' | 'group', project: string, id: number) =>
    projectStore.revokeAll(db, subject, project, id),
};
