import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

export const GroupRow = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  rootRole: z.number().nullable(),
  mappingsSSO: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  scimId: z.string().nullable(),
  scimExternalId: z.string().nullable(),
});
export type GroupRow = z.infer<typeof GroupRow>;
type GroupWrite = { name: string; description: string | null; rootRole: number | null; mappingsSSO: string[] };

const columns = sql.fragment`id, name, description, root_role_id as "rootRole", mappings_sso as "mappingsSSO",
  created_by as "createdBy", created_at as "createdAt", scim_id as "scimId", scim_external_id as "scimExternalId"`;

export const groupStore = {
  scimManaged: (db: Queryable) =>
    db.any(sql.type(GroupRow)`select ${columns} from admin.groups where scim_id is not null order by id`),
  findByScimId: (db: Queryable, scimId: string) =>
    db.maybeOne(sql.type(GroupRow)`select ${columns} from admin.groups where scim_id = ${scimId}`),
  setScim: (db: WriteTx, id: number, scim: { scimId: string | null; externalId: string | null }) =>
    db.query(
      sql.unsafe`update admin.groups set scim_id = ${scim.scimId}, scim_external_id = ${scim.externalId} where id = ${id}`,
    ),
  list: (db: Queryable) => db.any(sql.type(GroupRow)`select ${columns} from admin.groups order by name`),
  get: (db: Queryable, id: number) =>
    db.maybeOne(sql.type(GroupRow)`select ${columns} from admin.groups where id = ${id}`),
  /** Groups that map SSO (OIDC) groups onto themselves. */
  withSsoMappings: (db: Queryable) =>
    db.any(sql.type(GroupRow)`select ${columns} from admin.groups where jsonb_array_length(mappings_sso) > 0`),
  nameTaken(db: Queryable, name: string, exceptId?: number) {
    return db.exists(sql.unsafe`select 1 from admin.groups where name = ${name}
      ${exceptId !== undefined ? sql.fragment`and id <> ${exceptId}` : sql.fragment``}`);
  },
  insert(db: WriteTx, group: GroupWrite & { createdBy: string }) {
    return db.one(sql.type(
      GroupRow,
    )`insert into admin.groups (name, description, root_role_id, mappings_sso, created_by)
      values (${group.name}, ${group.description}, ${group.rootRole}, ${sql.jsonb(group.mappingsSSO)}, ${group.createdBy})
      returning ${columns}`);
  },
  update(db: WriteTx, id: number, group: GroupWrite) {
    return db.query(sql.unsafe`update admin.groups set name = ${group.name}, description = ${group.description},
      root_role_id = ${group.rootRole}, mappings_sso = ${sql.jsonb(group.mappingsSSO)} where id = ${id}`);
  },
  delete: (db: WriteTx, id: number) => db.query(sql.unsafe`delete from admin.groups where id = ${id}`),
  /** Who joined, when, and who or what added them (a person's name, "scim", or the sign-in method that synced them). */
  memberships: (db: Queryable, groupId: number) =>
    db.any(
      sql.type(z.object({ userId: z.number(), joinedAt: z.string(), createdBy: z.string().nullable() }))`
        select user_id as "userId", created_at as "joinedAt", created_by as "createdBy"
        from admin.group_users where group_id = ${groupId} order by user_id`,
    ),
  async memberIds(db: Queryable, groupId: number): Promise<number[]> {
    return [
      ...(await db.anyFirst(sql.type(z.object({ userId: z.number() }))`
      select user_id as "userId" from admin.group_users where group_id = ${groupId} order by user_id`)),
    ];
  },
  isMember: (db: Queryable, groupId: number, userId: number) =>
    db.exists(sql.unsafe`select 1 from admin.group_users where group_id = ${groupId} and user_id = ${userId}`),
  addMember: (db: WriteTx, groupId: number, userId: number, createdBy: string) =>
    db.query(
      sql.unsafe`insert into admin.group_users (group_id, user_id, created_by) values (${groupId}, ${userId}, ${createdBy}) on conflict do nothing`,
    ),
  removeMember: (db: WriteTx, groupId: number, userId: number) =>
    db.query(sql.unsafe`delete from admin.group_users where group_id = ${groupId} and user_id = ${userId}`),
};
