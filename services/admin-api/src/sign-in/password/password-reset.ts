import { createHash, randomBytes } from 'node:crypto';
import { AuthenticationRequired, NotFoundError, type Queryable } from '@bunting/platform';
import type { Change } from '../../events/changes.ts';
import type { PasswordHashing } from '../../users/passwords.ts';
import { userReadModel, type UserRow } from '../../users/user-read-model.ts';
import { userService } from '../../users/user-service.ts';
import { resetTokenStore } from './reset-token-store.ts';

/** How long a reset link works, as in Unleash. */
const VALID_HOURS = 24;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The user a reset is asked for: by id, email or username, as the admin UI sends any of them. */
async function findUser(db: Queryable, id: string): Promise<UserRow> {
  const user = /^\d+$/.test(id) ? await userReadModel.find(db, Number(id)) : await userReadModel.findByLogin(db, id);
  if (!user || user.isService) throw new NotFoundError(`Could not find user ${id}`);
  return user;
}

/** Makes a one-time reset link for a user; earlier unused links of theirs stop working. */
export async function createResetLink(
  change: Change,
  id: string,
  baseUrl: string,
): Promise<{ resetPasswordUrl: string }> {
  const user = await findUser(change.tx, id);
  const token = randomBytes(32).toString('base64url');
  await resetTokenStore.retireFor(change.tx, user.id);
  await resetTokenStore.insert(change.tx, {
    hash: hashOf(token),
    userId: user.id,
    createdBy: change.actor.createdBy,
    validHours: VALID_HOURS,
  });
  const url = new URL('/reset-password', baseUrl);
  url.searchParams.set('token', token);
  return { resetPasswordUrl: url.toString() };
}

/** The user a token still resets the password of; 401 for an unknown, used or expired token. */
export async function userOfResetToken(
  db: Queryable,
  token: string,
  options: { forUse?: boolean } = {},
): Promise<UserRow> {
  const holder = await resetTokenStore.holder(db, hashOf(token), options.forUse ?? false);
  const user = holder !== null ? await userReadModel.find(db, holder) : null;
  if (!user) throw new AuthenticationRequired('The reset link is invalid or has expired; ask an admin for a new one.');
  return user;
}

/** Sets the password through a token, which is then used up; returns whose it was. */
export async function resetPassword(
  change: Change,
  token: string,
  password: string,
  hashing: PasswordHashing,
): Promise<number> {
  const user = await userOfResetToken(change.tx, token, { forUse: true });
  await userService.setPassword(change, user.id, password, hashing);
  await resetTokenStore.use(change.tx, hashOf(token));
  return user.id;
}
