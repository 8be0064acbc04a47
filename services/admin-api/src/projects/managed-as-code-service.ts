import type { ManagedAsCode } from '@bunting/contracts';
import { ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { managedAsCodeStore, type CodeSettingsRow } from './managed-as-code-store.ts';
import { requireProject } from './project-read-model.ts';

const OFF: ManagedAsCode = { enabled: false, repository: null, path: null, serviceAccountId: null };

export function managedAsCodeView(row: CodeSettingsRow | null): ManagedAsCode {
  if (!row) return OFF;
  return { enabled: true, repository: row.repository, path: row.path, serviceAccountId: row.writerUserId };
}

export const managedAsCodeService = {
  async get(db: Queryable, project: string): Promise<ManagedAsCode> {
    await requireProject(db, project);
    return managedAsCodeView(await managedAsCodeStore.get(db, project));
  },

  async put(change: Change, project: string, input: ManagedAsCode): Promise<ManagedAsCode> {
    await requireProject(change.tx, project);
    if (input.serviceAccountId !== null) {
      const account = await userReadModel.find(change.tx, input.serviceAccountId);
      if (!account?.isService)
        throw ValidationError.field('serviceAccountId', `there is no service account ${input.serviceAccountId}`);
    }
    const before = managedAsCodeView(await managedAsCodeStore.get(change.tx, project));
    if (input.enabled) {
      await managedAsCodeStore.put(change.tx, {
        project,
        repository: input.repository!,
        path: input.path || null,
        writerUserId: input.serviceAccountId,
      });
    } else await managedAsCodeStore.remove(change.tx, project);
    const after = managedAsCodeView(await managedAsCodeStore.get(change.tx, project));
    change.emit({
      type: 'project-updated',
      project,
      data: { id: project, managedAsCode: after },
      preData: { id: project, managedAsCode: before },
    });
    return after;
  },
};
