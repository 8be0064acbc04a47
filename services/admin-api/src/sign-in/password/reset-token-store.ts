import { z } from 'zod';
import type { WriteTx } from '../../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

/** One-time password reset links, kept as hashes of their tokens. */
export const resetTokenStore = {
  /** Earlier unused links of the user stop working. */
  retireFor: (db: WriteTx, userId: number) =>
    db.query(sql.unsafe`update admin.reset_tokens set used_at = now() where user_id = ${userId} and used_at is null`),
  insert(db: WriteTx, token: { hash: string; userId: number; createdBy: string; validHours: number }) {
    return db.query(sql.unsafe`
      insert into admin.reset_tokens (token_hash, user_id, created_by, expires_at)
      values (${token.hash}, ${token.userId}, ${token.createdBy}, now() + make_interval(hours => ${token.validHours}))`);
  },
  /** The user a token still resets the password of (unused, unexpired); `forUpdate` locks it for using it up. */
  holder(db: Queryable, hash: string, forUpdate: boolean) {
    return db.maybeOneFirst(sql.type(z.object({ userId: z.number() }))`
      select user_id as "userId" from admin.reset_tokens
      where token_hash = ${hash} and used_at is null and expires_at > now()
      ${forUpdate ? sql.fragment`for update` : sql.fragment``}`);
  },
  use: (db: WriteTx, hash: string) =>
    db.query(sql.unsafe`update admin.reset_tokens set used_at = now() where token_hash = ${hash}`),
};
