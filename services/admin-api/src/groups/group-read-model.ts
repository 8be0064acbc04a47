import { NotFoundError, type Queryable } from '@bunting/platform';
import { groupStore, type GroupRow } from './group-store.ts';

export type { GroupRow };

/** What other slices may read of groups (SCIM provisioning). */
export const groupReadModel = {
  scimManaged: (db: Queryable) => groupStore.scimManaged(db),
  findByScimId: (db: Queryable, scimId: string) => groupStore.findByScimId(db, scimId),
  memberIds: (db: Queryable, groupId: number) => groupStore.memberIds(db, groupId),
};

export async function requireGroup(db: Queryable, id: number): Promise<GroupRow> {
  const row = await groupStore.get(db, id);
  if (!row) throw new NotFoundError(`Could not find group ${id}`);
  return row;
}
