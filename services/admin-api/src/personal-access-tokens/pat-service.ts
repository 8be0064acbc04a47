import { NameExistsError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { newPatSecret, patEventState, patStore, patView } from './pat-store.ts';
import { accessHistoryReadModel } from '../access-history/access-history-read-model.ts';

export const patService = {
  async list(db: Queryable, userId: number) {
    return { pats: (await patStore.listFor(db, userId)).map((row) => patView(row)) };
  },

  /** The secret is in this answer only; the database keeps its hash. */
  async create(change: Change, userId: number, input: { description: string; expiresAt: string }) {
    const expiresAt = new Date(input.expiresAt);
    if (expiresAt.getTime() <= Date.now()) throw ValidationError.field('expiresAt', 'must be in the future');
    // A person tells their tokens apart by description: one per token, as in Unleash.
    if ((await patStore.listFor(change.tx, userId)).some((token) => token.description === input.description)) {
      throw new NameExistsError(`You already have a personal access token described "${input.description}"`);
    }
    const secret = newPatSecret();
    const row = await patStore.insert(change.tx, {
      userId,
      secret,
      description: input.description,
      expiresAt: expiresAt.toISOString(),
    });
    change.emit({ type: 'pat-created', data: patEventState(row) });
    return patView(row, secret);
  },

  async delete(change: Change, userId: number, id: number) {
    const row = await patStore.get(change.tx, id);
    if (!row || row.userId !== userId) throw new NotFoundError(`Could not find personal access token ${id}`);
    const hash = await patStore.delete(change.tx, id);
    if (hash)
      await accessHistoryReadModel.revoke(change.tx, {
        hash,
        kind: 'personal-access-token',
        name: row.description,
        userId: row.userId,
      });
    change.emit({ type: 'pat-deleted', data: patEventState(row) });
  },
};
