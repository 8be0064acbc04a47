import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

export const TokenRow = z.object({
  secret: z.string(),
  name: z.string(),
  expiresAt: z.string(),
  enabled: z.boolean(),
  roleId: z.number(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type TokenRow = z.infer<typeof TokenRow>;

const columns = sql.fragment`secret, name, expires_at as "expiresAt", enabled, role_id as "roleId", created_by as "createdBy", created_at as "createdAt"`;

/** Invite links (public signup tokens) and the users who signed up with each. */
export const inviteStore = {
  list: (db: Queryable) =>
    db.any(sql.type(TokenRow)`select ${columns} from admin.public_signup_tokens order by created_at`),
  get: (db: Queryable, secret: string) =>
    db.maybeOne(sql.type(TokenRow)`select ${columns} from admin.public_signup_tokens where secret = ${secret}`),
  insert(db: WriteTx, token: { secret: string; name: string; expiresAt: string; createdBy: string }) {
    return db.one(sql.type(TokenRow)`insert into admin.public_signup_tokens (secret, name, expires_at, created_by)
      values (${token.secret}, ${token.name}, ${token.expiresAt}, ${token.createdBy}) returning ${columns}`);
  },
  update: (db: WriteTx, secret: string, expiresAt: string, enabled: boolean) =>
    db.query(
      sql.unsafe`update admin.public_signup_tokens set expires_at = ${expiresAt}, enabled = ${enabled} where secret = ${secret}`,
    ),
  userIds: (db: Queryable, secret: string) =>
    db.anyFirst(sql.type(z.object({ userId: z.number() }))`
    select user_id as "userId" from admin.public_signup_token_users where secret = ${secret} order by user_id`),
  addUser: (db: WriteTx, secret: string, userId: number) =>
    db.query(sql.unsafe`insert into admin.public_signup_token_users (secret, user_id) values (${secret}, ${userId})`),
};
