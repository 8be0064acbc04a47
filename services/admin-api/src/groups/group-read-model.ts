import { NotFoundError, type Queryable } from '@bunting/platform';
import { groupStore, type GroupRow } from './group-store.ts';

export async function requireGroup(db: Queryable, id: number): Promise<GroupRow> {
  const row = await groupStore.get(db, id);
  if (!row) throw new NotFoundError(`Could not find group ${id}`);
  return row;
}
