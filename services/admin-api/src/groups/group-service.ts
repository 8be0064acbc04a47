import type { CreateGroup } from '@bunting/contracts';
import { NameExistsError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { roleReadModel } from '../roles/role-read-model.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { groupStore, type GroupRow } from './group-store.ts';
import { requireGroup } from './group-read-model.ts';

async function groupView(db: Queryable, { scimExternalId: _external, ...row }: GroupRow) {
  const memberships = await groupStore.memberships(db, row.id);
  const people = new Map(
    (
      await userReadModel.views(
        db,
        memberships.map((entry) => entry.userId),
      )
    ).map((user) => [user.id, user]),
  );
  const users = memberships.flatMap(({ userId, joinedAt, createdBy }) => {
    const user = people.get(userId);
    return user ? [{ joinedAt, createdBy, user }] : [];
  });
  return { ...row, users, userCount: users.length };
}

function eventState(row: GroupRow, userIds: number[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    rootRole: row.rootRole,
    mappingsSSO: row.mappingsSSO,
    users: userIds,
  };
}

async function setMembers(change: Change, group: GroupRow, wanted: number[]) {
  const current = await groupStore.memberIds(change.tx, group.id);
  for (const userId of wanted.filter((id) => !current.includes(id))) {
    if (!(await userReadModel.find(change.tx, userId)))
      throw ValidationError.field('users', `user ${userId} does not exist`);
    await groupStore.addMember(change.tx, group.id, userId, change.actor.createdBy);
    change.emit({ type: 'group-user-added', data: { groupId: group.id, userId } });
  }
  for (const userId of current.filter((id) => !wanted.includes(id))) {
    await groupStore.removeMember(change.tx, group.id, userId);
    change.emit({ type: 'group-user-removed', preData: { groupId: group.id, userId } });
  }
}

export const groupService = {
  async list(db: Queryable) {
    const rows = await groupStore.list(db);
    const groups = [];
    for (const row of rows) groups.push(await groupView(db, row));
    return { groups };
  },

  async get(db: Queryable, id: number) {
    return groupView(db, await requireGroup(db, id));
  },

  async create(change: Change, input: CreateGroup) {
    const { tx, emit, actor } = change;
    if (await groupStore.nameTaken(tx, input.name)) {
      throw new NameExistsError(`A group with the name ${input.name} already exists`);
    }
    const rootRole = input.rootRole ? (await roleReadModel.requireRootRole(tx, input.rootRole)).id : null;
    const row = await groupStore.insert(tx, {
      name: input.name,
      description: input.description ?? null,
      rootRole,
      mappingsSSO: input.mappingsSSO ?? [],
      createdBy: actor.createdBy,
    });
    const userIds = [...new Set((input.users ?? []).map((entry) => entry.user.id))];
    emit({ type: 'group-created', data: eventState(row, userIds) });
    await setMembers(change, row, userIds);
    return groupView(tx, row);
  },

  async update(change: Change, id: number, input: CreateGroup) {
    const { tx, emit } = change;
    const before = await requireGroup(tx, id);
    const beforeUsers = await groupStore.memberIds(tx, id);
    if (await groupStore.nameTaken(tx, input.name, id)) {
      throw new NameExistsError(`A group with the name ${input.name} already exists`);
    }
    const rootRole =
      input.rootRole === undefined
        ? before.rootRole
        : input.rootRole === null
          ? null
          : (await roleReadModel.requireRootRole(tx, input.rootRole)).id;
    await groupStore.update(tx, id, {
      name: input.name,
      description: input.description === undefined ? before.description : (input.description ?? null),
      rootRole,
      mappingsSSO: input.mappingsSSO ?? before.mappingsSSO,
    });
    const after = await requireGroup(tx, id);
    const userIds = input.users ? [...new Set(input.users.map((entry) => entry.user.id))] : beforeUsers;
    emit({ type: 'group-updated', data: eventState(after, userIds), preData: eventState(before, beforeUsers) });
    await setMembers(change, after, userIds);
    return groupView(tx, after);
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireGroup(tx, id);
    const users = await groupStore.memberIds(tx, id);
    await groupStore.delete(tx, id);
    emit({ type: 'group-deleted', preData: eventState(before, users) });
  },

  /** What SCIM knows the group by (null: no longer managed); no event, the group itself is unchanged. */
  async setScim(change: Change, id: number, scim: { scimId: string | null; externalId: string | null }) {
    await groupStore.setScim(change.tx, id, scim);
  },

  /** Sets the members to exactly `userIds`, with an event for each joining and leaving. */
  async setMembers(change: Change, id: number, userIds: number[]) {
    await setMembers(change, await requireGroup(change.tx, id), [...new Set(userIds)]);
  },

  /**
   * Group syncing at single sign-on: the user belongs to exactly the groups whose SSO mappings name one of their
   * claims. A membership it adds records the sign-in method that made it.
   */
  async syncFromClaims(change: Change, userId: number, claimGroups: readonly string[], method: 'oidc' | 'saml') {
    for (const group of await groupStore.withSsoMappings(change.tx)) {
      const member = await groupStore.isMember(change.tx, group.id, userId);
      const wanted = group.mappingsSSO.some((mapping) => claimGroups.includes(mapping));
      if (wanted && !member) {
        await groupStore.addMember(change.tx, group.id, userId, method);
        change.emit({ type: 'group-user-added', data: { groupId: group.id, userId } });
      } else if (!wanted && member) {
        await groupStore.removeMember(change.tx, group.id, userId);
        change.emit({ type: 'group-user-removed', preData: { groupId: group.id, userId } });
      }
    }
  },
};
