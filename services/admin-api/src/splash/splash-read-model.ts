import type { Queryable } from '@bunting/platform';
import { splashStore } from './splash-store.ts';

/** A user's dismissed screens as Unleash's `/api/admin/user` reports them: `{ "<id>": true }`. */
export async function splashSeen(db: Queryable, userId: number): Promise<Record<string, boolean>> {
  return Object.fromEntries((await splashStore.seenBy(db, userId)).map((id) => [id, true]));
}
