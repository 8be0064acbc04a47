import type { User } from '@bunting/contracts';
import { NotFoundError, type Queryable } from '@bunting/platform';
import { userStore, userView, type UserRow } from './user-store.ts';

export { userView, type UserRow };

/** A user (or with `serviceAccount`, a service account) by id; 404 otherwise. */
export async function requireUser(
  db: Queryable,
  id: number,
  options: { serviceAccount?: boolean } = {},
): Promise<UserRow> {
  const user = await userStore.get(db, id);
  const wanted = options.serviceAccount ?? false;
  if (!user || user.isService !== wanted)
    throw new NotFoundError(`Could not find ${wanted ? 'service account' : 'user'} ${id}`);
  return user;
}

/** What the rest of admin-api may ask of users. */
export const userReadModel = {
  requireUser,
  find: (db: Queryable, id: number) => userStore.get(db, id),
  /** A person signing in may give their username or their email. */
  findByLogin: (db: Queryable, login: string) => userStore.findByLogin(db, login),
  findByEmail: (db: Queryable, email: string) => userStore.findByEmail(db, email),
  /** The user an OpenID subject was linked to at an earlier sign-in. */
  findByOidcSubject: (db: Queryable, subject: string) => userStore.findByOidcSubject(db, subject),
  count: (db: Queryable) => userStore.count(db),
  /** The users of `ids` that exist, as the API shows them, in the order given. */
  async views(db: Queryable, ids: readonly number[]): Promise<User[]> {
    const users = await Promise.all(ids.map((id) => userStore.get(db, id)));
    return users.flatMap((user) => (user ? [userView(user)] : []));
  },
  async serviceAccounts(db: Queryable): Promise<User[]> {
    return (await userStore.list(db, true)).map(userView);
  },
  projectsOf: (db: Queryable, id: number) => userStore.projectsOf(db, id),
  groupsOf: (db: Queryable, id: number) => userStore.groupsOf(db, id),
  adminCount: (db: Queryable) => userStore.adminCount(db),
  projectRolesOf: (db: Queryable, id: number, project: string) => userStore.projectRolesOf(db, id, project),
  /** Every person (not service accounts), in id order. */
  people: (db: Queryable) => userStore.list(db, false),
  inactive: async (db: Queryable) => userStore.inactive(db),
  scimManaged: (db: Queryable) => userStore.scimManaged(db),
  findByScimId: (db: Queryable, scimId: string) => userStore.findByScimId(db, scimId),
  /** Of these users, those who have not turned off e-mail about change requests waiting for them. */
  wantingChangeRequestMail: (db: Queryable, ids: readonly number[]) => userStore.wantingChangeRequestMail(db, ids),
};
