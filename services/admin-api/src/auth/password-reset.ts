import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AuthenticationRequired, NotFoundError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { userService } from '../users/user-service.ts';
import { userStore, type UserRow } from '../users/user-store.ts';

/** How long a reset link works, as in Unleash. */
const VALID_HOURS = 24;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The user a reset is asked for: by id, email or username, as the admin UI sends any of them. */
async function findUser(db: Queryable, id: string): Promise<UserRow> {
  const user = /^\d+$/.test(id) ? await userStore.get(db, Number(id)) : await userStore.findByLogin(db, id);
  if (!user || user.isService) throw new NotFoundError(`Could not find user ${id}`);
  return user;
}

/** Makes a one-time reset link for a user; earlier unused links of theirs stop working. */
export async function createResetLink(change: Change, id: string, baseUrl: string): Promise<{ resetPasswordUrl: string }> {
  const user = await findUser(change.tx, id);
  const token = randomBytes(32).toString('base64url');
  await change.tx.query(sql.unsafe`update admin.reset_tokens set used_at = now() where user_id = ${user.id} and used_at is null`);
  await change.tx.query(sql.unsafe`
    insert into admin.reset_tokens (token_hash, user_id, created_by, expires_at)
    values (${hashOf(token)}, ${user.id}, ${change.actor.createdBy}, now() + make_interval(hours => ${VALID_HOURS}))`);
  const url = new URL('/reset-password', baseUrl);
  url.searchParams.set('token', token);
  return { resetPasswordUrl: url.toString() };
}

const Holder = z.object({ userId: z.number() });

/** The user a token still resets the password of; 401 for an unknown, used or expired token. */
export async function userOfResetToken(db: Queryable, token: string, options: { forUse?: boolean } = {}): Promise<UserRow> {
  const holder = await db.maybeOne(sql.type(Holder)`
    select user_id as "userId" from admin.reset_tokens
    where token_hash = ${hashOf(token)} and used_at is null and expires_at > now()
    ${options.forUse ? sql.fragment`for update` : sql.fragment``}`);
  const user = holder ? await userStore.get(db, holder.userId) : null;
  if (!user) throw new AuthenticationRequired('The reset link is invalid or has expired; ask an admin for a new one.');
  return user;
}

/** Sets the password through a token, which is then used up. */
export async function resetPassword(change: Change, token: string, password: string): Promise<void> {
  const user = await userOfResetToken(change.tx, token, { forUse: true });
  await userService.setPassword(change, user.id, password);
  await change.tx.query(sql.unsafe`update admin.reset_tokens set used_at = now() where token_hash = ${hashOf(token)}`);
}
