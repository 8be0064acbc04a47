import { createHash } from 'node:crypto';
import type { WriteTx } from '../events/write-tx.ts';
import { z } from 'zod';
import type { User } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

export const UserRow = z.object({
  id: z.number(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  imageUrl: z.string().nullable(),
  passwordHash: z.string().nullable(),
  rootRole: z.number(),
  loginAttempts: z.number(),
  seenAt: z.string().nullable(),
  createdAt: z.string(),
  isService: z.boolean(),
  emailSent: z.boolean(),
  scimId: z.string().nullable(),
  scimExternalId: z.string().nullable(),
  /** False once deactivated (by SCIM): the account stays, signing in does not work. */
  active: z.boolean(),
});
export type UserRow = z.infer<typeof UserRow>;

const columns = sql.fragment`id, name, username, email, image_url as "imageUrl", password_hash as "passwordHash",
  root_role_id as "rootRole", login_attempts as "loginAttempts", seen_at as "seenAt", created_at as "createdAt",
  is_service as "isService", email_sent as "emailSent", scim_id as "scimId", scim_external_id as "scimExternalId", active`;

function gravatar(email: string | null): string {
  const digest = createHash('md5')
    .update((email ?? '').trim().toLowerCase())
    .digest('hex');
  return `https://gravatar.com/avatar/${digest}?s=42&d=retro&r=g`;
}

/** A user as the API shows them; the password hash never leaves the store. */
export function userView(row: UserRow): User {
  return {
    id: row.id,
    isAPI: false,
    name: row.name,
    ...(row.email ? { email: row.email } : {}),
    username: row.username,
    imageUrl: row.imageUrl ?? gravatar(row.email),
    loginAttempts: row.loginAttempts,
    emailSent: row.emailSent,
    rootRole: row.rootRole,
    seenAt: row.seenAt,
    createdAt: row.createdAt,
    accountType: row.isService ? 'Service Account' : 'User',
    permissions: [],
    scimId: row.scimId,
    // Unleash's commercial fields, always empty here, sent so clients reading Unleash's user shape find them.
    seatType: null,
    companyRole: null,
    productUpdatesEmailConsent: null,
  };
}

/** The user fields events carry. */
export function userEventState(row: UserRow) {
  return { id: row.id, name: row.name, email: row.email, username: row.username, rootRole: row.rootRole };
}

export const userStore = {
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(UserRow)`select ${columns} from admin.users where id = ${id}`);
  },
  /** A person logging in may give their username or their email. */
  findByLogin(db: Queryable, login: string) {
    return db.maybeOne(sql.type(UserRow)`select ${columns} from admin.users
      where not is_service and (lower(username) = lower(${login}) or lower(email) = lower(${login})) order by id limit 1`);
  },
  findByOidcSubject(db: Queryable, subject: string) {
    return db.maybeOne(sql.type(UserRow)`select ${columns} from admin.users where oidc_subject = ${subject}`);
  },
  setOidcSubject(db: WriteTx, id: number, subject: string) {
    return db.query(sql.unsafe`update admin.users set oidc_subject = ${subject} where id = ${id}`);
  },
  findByEmail(db: Queryable, email: string) {
    return db.maybeOne(
      sql.type(UserRow)`select ${columns} from admin.users where lower(email) = lower(${email}) limit 1`,
    );
  },
  list(db: Queryable, serviceAccounts: boolean) {
    return db.any(
      sql.type(UserRow)`select ${columns} from admin.users where is_service = ${serviceAccounts} order by id`,
    );
  },
  search(db: Queryable, query: string) {
    const pattern = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    return db.any(sql.type(UserRow)`select ${columns} from admin.users where not is_service
      and (name ilike ${pattern} or username ilike ${pattern} or email ilike ${pattern}) order by id limit 100`);
  },
  emailTaken(db: Queryable, email: string, exceptId = 0) {
    return db.exists(sql.unsafe`select 1 from admin.users where lower(email) = lower(${email}) and id <> ${exceptId}`);
  },
  usernameTaken(db: Queryable, username: string, exceptId = 0) {
    return db.exists(
      sql.unsafe`select 1 from admin.users where lower(username) = lower(${username}) and id <> ${exceptId}`,
    );
  },
  insert(
    db: WriteTx,
    user: {
      name: string | null;
      username: string | null;
      email: string | null;
      passwordHash: string | null;
      rootRole: number;
      isService: boolean;
    },
  ) {
    return db.one(sql.type(UserRow)`
      insert into admin.users (name, username, email, password_hash, root_role_id, is_service)
      values (${user.name}, ${user.username}, ${user.email}, ${user.passwordHash}, ${user.rootRole}, ${user.isService})
      returning ${columns}`);
  },
  update(
    db: WriteTx,
    id: number,
    user: { name: string | null; email: string | null; rootRole: number; username: string | null },
  ) {
    return db.one(sql.type(
      UserRow,
    )`update admin.users set name = ${user.name}, email = ${user.email}, root_role_id = ${user.rootRole},
      username = ${user.username} where id = ${id} returning ${columns}`);
  },
  setPassword(db: WriteTx, id: number, passwordHash: string) {
    return db.query(
      sql.unsafe`update admin.users set password_hash = ${passwordHash}, login_attempts = 0 where id = ${id}`,
    );
  },
  notificationPreferences(db: Queryable, id: number) {
    return db.maybeOne(
      sql.type(
        z.object({ changeRequests: z.boolean() }),
      )`select notify_change_requests as "changeRequests" from admin.users where id = ${id}`,
    );
  },
  setNotificationPreferences(db: WriteTx, id: number, preferences: { changeRequests: boolean }) {
    return db.query(
      sql.unsafe`update admin.users set notify_change_requests = ${preferences.changeRequests} where id = ${id}`,
    );
  },
  /** Of these users, those who want change-request mail. */
  wantingChangeRequestMail(db: Queryable, ids: readonly number[]) {
    return db.anyFirst(
      sql.type(
        z.object({ id: z.number() }),
      )`select id from admin.users where id = any(${sql.array([...ids], 'int4')}) and notify_change_requests`,
    );
  },
  /** The users SCIM manages, in id order. */
  scimManaged(db: Queryable) {
    return db.any(sql.type(UserRow)`select ${columns} from admin.users where scim_id is not null order by id`);
  },
  findByScimId(db: Queryable, scimId: string) {
    return db.maybeOne(sql.type(UserRow)`select ${columns} from admin.users where scim_id = ${scimId}`);
  },
  /** Sets what SCIM knows a user by (null ids: no longer managed). */
  setScim(db: WriteTx, id: number, scim: { scimId: string | null; externalId: string | null; active: boolean }) {
    return db.query(
      sql.unsafe`update admin.users set scim_id = ${scim.scimId}, scim_external_id = ${scim.externalId}, active = ${scim.active} where id = ${id}`,
    );
  },
  markEmailSent(db: WriteTx, id: number) {
    return db.query(sql.unsafe`update admin.users set email_sent = true where id = ${id}`);
  },
  clearFailedLogins(db: WriteTx, id: number) {
    return db.query(sql.unsafe`update admin.users set login_attempts = 0 where id = ${id}`);
  },
  recordFailedLogin(db: WriteTx, id: number) {
    return db.query(sql.unsafe`update admin.users set login_attempts = login_attempts + 1 where id = ${id}`);
  },
  recordLogin(db: WriteTx, id: number) {
    return db.query(sql.unsafe`update admin.users set login_attempts = 0, seen_at = now() where id = ${id}`);
  },
  delete(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.users where id = ${id}`);
  },
  /** Users not seen (nor created) for 180 days, Unleash's "inactive users"; `among` narrows to some ids. */
  inactive(db: Queryable, among?: readonly number[]) {
    return db.any(sql.type(UserRow)`select ${columns} from admin.users
      where not is_service and coalesce(seen_at, created_at) < now() - interval '180 days'
      ${among ? sql.fragment`and id = any(${sql.array(among, 'int4')})` : sql.fragment``} order by id`);
  },
  /** The projects a user is a member of, directly or through a group. */
  projectsOf(db: Queryable, id: number) {
    return db.anyFirst(sql.type(z.object({ project: z.string() }))`
      select distinct project_id as project from (
        select project_id from admin.project_user_roles where user_id = ${id}
        union select pgr.project_id from admin.project_group_roles pgr join admin.group_users gu on gu.group_id = pgr.group_id
          where gu.user_id = ${id}) memberships order by project`);
  },
  /** Users with the Admin root role: with a password, without one (signing in through OIDC), and service accounts. */
  adminCount(db: Queryable) {
    return db.one(sql.type(z.object({ password: z.number(), noPassword: z.number(), service: z.number() }))`
      select count(*) filter (where not is_service and password_hash is not null)::int as password,
        count(*) filter (where not is_service and password_hash is null)::int as "noPassword",
        count(*) filter (where is_service)::int as service
      from admin.users where root_role_id = 1`);
  },
  /** The groups the user is a member of, as the profile lists them. */
  groupsOf(db: Queryable, id: number) {
    return db.any(sql.type(
      z.object({ id: z.number(), name: z.string(), mappingsSSO: z.array(z.string()), rootRole: z.number().nullable() }),
    )`
      select g.id, g.name, g.mappings_sso as "mappingsSSO", g.root_role_id as "rootRole"
      from admin.groups g join admin.group_users gu on gu.group_id = g.id where gu.user_id = ${id} order by g.name`);
  },
  /** The project roles the user holds in a project, directly or through a group. */
  projectRolesOf(db: Queryable, id: number, project: string) {
    return db.any(sql.type(
      z.object({ id: z.number(), name: z.string(), description: z.string().nullable(), type: z.string() }),
    )`
      select distinct r.id, r.name, r.description, r.type from admin.roles r where r.id in (
        select role_id from admin.project_user_roles where user_id = ${id} and project_id = ${project}
        union select pgr.role_id from admin.project_group_roles pgr join admin.group_users gu on gu.group_id = pgr.group_id
          where gu.user_id = ${id} and pgr.project_id = ${project}) order by r.id`);
  },
  count(db: Queryable) {
    return db.oneFirst(
      sql.type(z.object({ count: z.number() }))`select count(*)::int as count from admin.users where not is_service`,
    );
  },
};
