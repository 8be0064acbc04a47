import type { CreateUser, User } from '@bunting/contracts';
import { recordKeeping } from '../events/write-tx.ts';
import { NameExistsError, type DatabasePool, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { roleReadModel } from '../roles/role-read-model.ts';
import { hashPassword, type PasswordHashing } from './passwords.ts';
import { userEventState, userStore, userView, type UserRow } from './user-store.ts';
import { requireUser } from './user-read-model.ts';

async function checkUnique(
  db: Queryable,
  input: { email?: string | null | undefined; username?: string | null | undefined },
  exceptId = 0,
) {
  if (input.email && (await userStore.emailTaken(db, input.email, exceptId))) {
    throw new NameExistsError(`A user with the email ${input.email} already exists`);
  }
  if (input.username && (await userStore.usernameTaken(db, input.username, exceptId))) {
    throw new NameExistsError(`A user with the username ${input.username} already exists`);
  }
}

/** A password is hashed at the installation's cost (PASSWORD_HASHING); a caller that sends one says what it is. */
function hashingFor(hashing: PasswordHashing | undefined): PasswordHashing {
  if (!hashing) throw new Error('a user created with a password needs the password hashing setting');
  return hashing;
}

export const userService = {
  async list(db: Queryable) {
    const [users, rootRoles] = await Promise.all([userStore.list(db, false), roleReadModel.rootRoles(db)]);
    return { users: users.map(userView), rootRoles };
  },

  async create(
    change: Change,
    input: CreateUser & { isService?: boolean },
    options: { emit?: boolean; hashing?: PasswordHashing } = {},
  ): Promise<UserRow> {
    const { tx, emit } = change;
    const role = await roleReadModel.requireRootRole(tx, input.rootRole);
    await checkUnique(tx, input);
    const row = await userStore.insert(tx, {
      name: input.name ?? null,
      username: input.username ?? null,
      email: input.email ?? null,
      passwordHash: input.password ? await hashPassword(input.password, hashingFor(options.hashing)) : null,
      rootRole: role.id,
      isService: input.isService ?? false,
    });
    if (options.emit ?? true)
      emit({ type: input.isService ? 'service-account-created' : 'user-created', data: userEventState(row) });
    return row;
  },

  async update(
    change: Change,
    id: number,
    input: {
      name?: string | undefined;
      email?: string | undefined;
      rootRole?: number | string | undefined;
      username?: string | undefined;
    },
    options: { serviceAccount?: boolean } = {},
  ): Promise<User> {
    const { tx, emit } = change;
    const before = await requireUser(tx, id, options);
    const rootRole =
      input.rootRole === undefined ? before.rootRole : (await roleReadModel.requireRootRole(tx, input.rootRole)).id;
    await checkUnique(
      tx,
      { email: input.email, username: input.username === before.username ? undefined : input.username },
      id,
    );
    const after = await userStore.update(tx, id, {
      name: input.name ?? before.name,
      email: input.email ?? before.email,
      rootRole,
      username: input.username ?? before.username,
    });
    if (JSON.stringify(userEventState(after)) !== JSON.stringify(userEventState(before))) {
      emit({
        type: before.isService ? 'service-account-updated' : 'user-updated',
        data: userEventState(after),
        preData: userEventState(before),
      });
    }
    return userView(after);
  },

  async delete(change: Change, id: number, options: { serviceAccount?: boolean } = {}) {
    const before = await requireUser(change.tx, id, options);
    await userStore.delete(change.tx, id);
    change.emit({
      type: before.isService ? 'service-account-deleted' : 'user-deleted',
      preData: userEventState(before),
    });
  },

  async search(db: Queryable, query: string) {
    return (await userStore.search(db, query)).map(userView);
  },

  /** Deletes those of `ids` who really are inactive (other ids are left alone); returns the ids deleted. */
  async deleteInactive(change: Change, ids: readonly number[]): Promise<number[]> {
    const inactive = await userStore.inactive(change.tx, ids);
    for (const user of inactive) await userService.delete(change, user.id);
    return inactive.map((user) => user.id);
  },

  /** Links an OpenID subject to a user (on a verified email), so later sign-ins find them by it. */
  async linkOidcSubject(change: Change, id: number, subject: string) {
    await userStore.setOidcSubject(change.tx, id, subject);
    change.emit({ type: 'user-updated', data: { id, openIdConnectLinked: true }, preData: null });
  },

  recordLogin(db: DatabasePool, id: number) {
    return recordKeeping(db, (tx) => userStore.recordLogin(tx, id));
  },

  recordFailedLogin(db: DatabasePool, id: number) {
    return recordKeeping(db, (tx) => userStore.recordFailedLogin(tx, id));
  },

  async setPassword(change: Change, id: number, password: string, hashing: PasswordHashing) {
    const user = await requireUser(change.tx, id);
    await userStore.setPassword(change.tx, id, await hashPassword(password, hashing));
    change.emit({ type: 'user-updated', data: { id: user.id, passwordChanged: true }, preData: null });
  },

  /**
   * What SCIM knows the user by, and whether they may sign in: deactivating writes user-updated (active: false);
   * the caller ends their sessions.
   */
  async setScim(
    change: Change,
    id: number,
    scim: { scimId: string | null; externalId: string | null; active: boolean },
  ) {
    const before = await requireUser(change.tx, id);
    await userStore.setScim(change.tx, id, scim);
    if (before.active !== scim.active)
      change.emit({ type: 'user-updated', data: { id, active: scim.active }, preData: { id, active: before.active } });
  },

  async notificationPreferences(db: Queryable, id: number): Promise<{ changeRequests: boolean }> {
    return (await userStore.notificationPreferences(db, id)) ?? { changeRequests: true };
  },

  /** Personal state, as favorites are: no event in the log. */
  async setNotificationPreferences(change: Change, id: number, preferences: { changeRequests: boolean }) {
    await userStore.setNotificationPreferences(change.tx, id, preferences);
  },

  /** A welcome mail went out to the user (their emailSent, as Unleash answers it). */
  async markEmailSent(db: DatabasePool, id: number) {
    await recordKeeping(db, (tx) => userStore.markEmailSent(tx, id));
  },

  /** Forgets a user's failed sign-ins, which lifts a lock they caused (the caller clears the lock itself). */
  async unlock(change: Change, id: number) {
    const user = await requireUser(change.tx, id);
    await userStore.clearFailedLogins(change.tx, id);
    change.emit({
      type: 'user-updated',
      data: { id: user.id, loginAttempts: 0 },
      preData: { id: user.id, loginAttempts: user.loginAttempts },
    });
  },
};
