import { z } from 'zod';
import type { CreateGroup } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireRootRole } from '../roles/role-store.ts';
import { userStore, userView } from '../users/user-store.ts';

const GroupRow = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  rootRole: z.number().nullable(),
  mappingsSSO: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
type GroupRow = z.infer<typeof GroupRow>;

const select = sql.fragment`select id, name, description, root_role_id as "rootRole", mappings_sso as "mappingsSSO",
  created_by as "createdBy", created_at as "createdAt" from admin.groups`;

async function memberIds(db: Queryable, groupId: number): Promise<number[]> {
  return [...await db.anyFirst(sql.type(z.object({ userId: z.number() }))`
    select user_id as "userId" from admin.group_users where group_id = ${groupId} order by user_id`)];
}

async function groupView(db: Queryable, row: GroupRow) {
  const ids = await memberIds(db, row.id);
  const users = [];
  for (const id of ids) {
    const user = await userStore.get(db, id);
    if (user) users.push({ user: userView(user) });
  }
  return { ...row, users, userCount: users.length };
}

function eventState(row: GroupRow, userIds: number[]) {
  return { id: row.id, name: row.name, description: row.description, rootRole: row.rootRole, mappingsSSO: row.mappingsSSO, users: userIds };
}

export async function requireGroup(db: Queryable, id: number): Promise<GroupRow> {
  const row = await db.maybeOne(sql.type(GroupRow)`${select} where id = ${id}`);
  if (!row) throw new NotFoundError(`Could not find group ${id}`);
  return row;
}

async function setMembers(change: Change, group: GroupRow, wanted: number[]) {
  const current = await memberIds(change.tx, group.id);
  for (const userId of wanted.filter((id) => !current.includes(id))) {
    if (!(await userStore.get(change.tx, userId))) throw ValidationError.field('users', `user ${userId} does not exist`);
    await change.tx.query(sql.unsafe`insert into admin.group_users (group_id, user_id, created_by)
      values (${group.id}, ${userId}, ${change.actor.createdBy}) on conflict do nothing`);
    change.emit({ type: 'group-user-added', data: { groupId: group.id, userId } });
  }
  for (const userId of current.filter((id) => !wanted.includes(id))) {
    await change.tx.query(sql.unsafe`delete from admin.group_users where group_id = ${group.id} and user_id = ${userId}`);
    change.emit({ type: 'group-user-removed', preData: { groupId: group.id, userId } });
  }
}

export const groupService = {
  async list(db: Queryable) {
    const rows = await db.any(sql.type(GroupRow)`${select} order by name`);
    const groups = [];
    for (const row of rows) groups.push(await groupView(db, row));
    return { groups };
  },

  async get(db: Queryable, id: number) {
    return groupView(db, await requireGroup(db, id));
  },

  async create(change: Change, input: CreateGroup) {
    const { tx, emit, actor } = change;
    if (await tx.exists(sql.unsafe`select 1 from admin.groups where name = ${input.name}`)) {
      throw new NameExistsError(`A group with the name ${input.name} already exists`);
    }
    const rootRole = input.rootRole ? (await requireRootRole(tx, input.rootRole)).id : null;
    const row = await tx.one(sql.type(GroupRow)`insert into admin.groups (name, description, root_role_id, mappings_sso, created_by)
      values (${input.name}, ${input.description ?? null}, ${rootRole}, ${sql.jsonb(input.mappingsSSO ?? [])}, ${actor.createdBy})
      returning id, name, description, root_role_id as "rootRole", mappings_sso as "mappingsSSO", created_by as "createdBy", created_at as "createdAt"`);
    const userIds = [...new Set((input.users ?? []).map((entry) => entry.user.id))];
    emit({ type: 'group-created', data: eventState(row, userIds) });
    await setMembers(change, row, userIds);
    return groupView(tx, row);
  },

  async update(change: Change, id: number, input: CreateGroup) {
    const { tx, emit } = change;
    const before = await requireGroup(tx, id);
    const beforeUsers = await memberIds(tx, id);
    if (await tx.exists(sql.unsafe`select 1 from admin.groups where name = ${input.name} and id <> ${id}`)) {
      throw new NameExistsError(`A group with the name ${input.name} already exists`);
    }
    const rootRole = input.rootRole === undefined ? before.rootRole : input.rootRole === null ? null : (await requireRootRole(tx, input.rootRole)).id;
    await tx.query(sql.unsafe`update admin.groups set name = ${input.name}, description = ${input.description === undefined ? before.description : input.description},
      root_role_id = ${rootRole}, mappings_sso = ${sql.jsonb(input.mappingsSSO ?? before.mappingsSSO)} where id = ${id}`);
    const after = await requireGroup(tx, id);
    const userIds = input.users ? [...new Set(input.users.map((entry) => entry.user.id))] : beforeUsers;
    emit({ type: 'group-updated', data: eventState(after, userIds), preData: eventState(before, beforeUsers) });
    await setMembers(change, after, userIds);
    return groupView(tx, after);
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireGroup(tx, id);
    const users = await memberIds(tx, id);
    await tx.query(sql.unsafe`delete from admin.groups where id = ${id}`);
    emit({ type: 'group-deleted', preData: eventState(before, users) });
  },

  /** OIDC group syncing: the user belongs to exactly the groups whose SSO mappings name one of their claims. */
  async syncFromClaims(change: Change, userId: number, claimGroups: readonly string[]) {
    const groups = await change.tx.any(sql.type(GroupRow)`${select} where jsonb_array_length(mappings_sso) > 0`);
    for (const group of groups) {
      const member = await change.tx.exists(sql.unsafe`select 1 from admin.group_users where group_id = ${group.id} and user_id = ${userId}`);
      const wanted = group.mappingsSSO.some((mapping) => claimGroups.includes(mapping));
      if (wanted && !member) {
        await change.tx.query(sql.unsafe`insert into admin.group_users (group_id, user_id, created_by) values (${group.id}, ${userId}, 'oidc')`);
        change.emit({ type: 'group-user-added', data: { groupId: group.id, userId } });
      } else if (!wanted && member) {
        await change.tx.query(sql.unsafe`delete from admin.group_users where group_id = ${group.id} and user_id = ${userId}`);
        change.emit({ type: 'group-user-removed', preData: { groupId: group.id, userId } });
      }
    }
  },
};
