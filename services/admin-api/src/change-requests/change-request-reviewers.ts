import type { ChangeRequestReviewer } from '@bunting/contracts';
import { Permission, hasPermission, type Queryable } from '@bunting/platform';
import { resolveUserPrincipal } from '../credentials/principal-resolver.ts';
import { userReadModel, type UserRow } from '../users/user-read-model.ts';
import { changeRequestStore } from './change-request-store.ts';

const reviewer = (user: UserRow): ChangeRequestReviewer => ({
  id: user.id,
  email: user.email ?? '',
  username: user.username,
  name: user.name,
  imageUrl: user.imageUrl,
});

export const changeRequestReviewers = {
  /** The people who may approve change requests in a project environment, whatever role gives them the right. */
  async available(db: Queryable, scope: { project: string; environment: string }): Promise<ChangeRequestReviewer[]> {
    const people = await userReadModel.people(db);
    const principals = await Promise.all(people.map((user) => resolveUserPrincipal(db, user.id, 'user')));
    return people
      .filter((_, index) => {
        const principal = principals[index];
        return (
          principal !== null &&
          principal !== undefined &&
          hasPermission(principal, Permission.APPROVE_CHANGE_REQUEST, scope)
        );
      })
      .map(reviewer);
  },

  /** The people the author asked to review. */
  async requested(db: Queryable, id: number): Promise<ChangeRequestReviewer[]> {
    const ids = await changeRequestStore.reviewers(db, id);
    const users = await Promise.all(ids.map((userId) => userReadModel.find(db, userId)));
    return users.flatMap((user) => (user && !user.isService ? [reviewer(user)] : []));
  },

  async existing(db: Queryable, ids: readonly number[]): Promise<number[]> {
    const users = await Promise.all(ids.map((userId) => userReadModel.find(db, userId)));
    return users.flatMap((user) => (user && !user.isService ? [user.id] : []));
  },
};
