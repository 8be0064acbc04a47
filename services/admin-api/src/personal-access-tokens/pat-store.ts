import { randomBytes } from 'node:crypto';
import type { WriteTx } from '../events/write-tx.ts';
import { z } from 'zod';
import type { Pat } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { hashSecret } from '../api-tokens/token-secret.ts';

const PatRow = z.object({
  id: z.number(),
  userId: z.number(),
  description: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
});
type PatRow = z.infer<typeof PatRow>;

const columns = sql.fragment`id, user_id as "userId", description, expires_at as "expiresAt", created_at as "createdAt", seen_at as "seenAt"`;

export function patView(row: PatRow, secret?: string): Pat {
  return {
    id: row.id,
    ...(secret ? { secret } : {}),
    createdAt: row.createdAt,
    seenAt: row.seenAt,
    userId: row.userId,
    description: row.description,
    expiresAt: row.expiresAt,
  };
}

export function patEventState(row: PatRow) {
  return { id: row.id, description: row.description, expiresAt: row.expiresAt, userId: row.userId };
}

/** Personal access tokens look like Unleash's: "user:" and random hex. */
export function newPatSecret(): string {
  return `user:${randomBytes(28).toString('hex')}`;
}

export const patStore = {
  listFor(db: Queryable, userId: number) {
    return db.any(
      sql.type(PatRow)`select ${columns} from admin.personal_access_tokens where user_id = ${userId} order by id`,
    );
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(PatRow)`select ${columns} from admin.personal_access_tokens where id = ${id}`);
  },
  findBySecret(db: Queryable, secret: string) {
    return db.maybeOne(
      sql.type(PatRow)`select ${columns} from admin.personal_access_tokens where secret_hash = ${hashSecret(secret)}`,
    );
  },
  insert(db: WriteTx, token: { userId: number; secret: string; description: string; expiresAt: string }) {
    return db.one(sql.type(
      PatRow,
    )`insert into admin.personal_access_tokens (user_id, secret_hash, description, expires_at)
      values (${token.userId}, ${hashSecret(token.secret)}, ${token.description}, ${token.expiresAt}) returning ${columns}`);
  },
  /** Deletes a token; the hash of its secret, so that a use of it afterwards is known for what it is. */
  async delete(db: WriteTx, id: number): Promise<string | null> {
    return (await db.maybeOneFirst(
      sql.unsafe`delete from admin.personal_access_tokens where id = ${id} returning secret_hash`,
    )) as string | null;
  },
  touchSeen(db: WriteTx, ids: number[]) {
    return db.query(
      sql.unsafe`update admin.personal_access_tokens set seen_at = now() where id = any(${sql.array(ids, 'int4')})`,
    );
  },
};
