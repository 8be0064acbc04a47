import { createHash } from 'node:crypto';
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
});
export type UserRow = z.infer<typeof UserRow>;

const columns = sql.fragment`id, name, username, email, image_url as "imageUrl", password_hash as "passwordHash",
  root_role_id as "rootRole", login_attempts as "loginAttempts", seen_at as "seenAt", created_at as "createdAt",
  is_service as "isService", email_sent as "emailSent", scim_id as "scimId"`;

function gravatar(email: string | null): string {
  const digest = createHash('md5').update((email ?? '').trim().toLowerCase()).digest('hex');
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
  findByEmail(db: Queryable, email: string) {
    return db.maybeOne(sql.type(UserRow)`select ${columns} from admin.users where lower(email) = lower(${email}) limit 1`);
  },
  list(db: Queryable, serviceAccounts: boolean) {
    return db.any(sql.type(UserRow)`select ${columns} from admin.users where is_service = ${serviceAccounts} order by id`);
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
    return db.exists(sql.unsafe`select 1 from admin.users where lower(username) = lower(${username}) and id <> ${exceptId}`);
  },
  insert(db: Queryable, user: { name: string | null; username: string | null; email: string | null; passwordHash: string | null; rootRole: number; isService: boolean }) {
    return db.one(sql.type(UserRow)`
      insert into admin.users (name, username, email, password_hash, root_role_id, is_service)
      values (${user.name}, ${user.username}, ${user.email}, ${user.passwordHash}, ${user.rootRole}, ${user.isService})
      returning ${columns}`);
  },
  update(db: Queryable, id: number, user: { name: string | null; email: string | null; rootRole: number }) {
    return db.one(sql.type(UserRow)`update admin.users set name = ${user.name}, email = ${user.email}, root_role_id = ${user.rootRole}
      where id = ${id} returning ${columns}`);
  },
  setPassword(db: Queryable, id: number, passwordHash: string) {
    return db.query(sql.unsafe`update admin.users set password_hash = ${passwordHash}, login_attempts = 0 where id = ${id}`);
  },
  recordFailedLogin(db: Queryable, id: number) {
    return db.query(sql.unsafe`update admin.users set login_attempts = login_attempts + 1 where id = ${id}`);
  },
  recordLogin(db: Queryable, id: number) {
    return db.query(sql.unsafe`update admin.users set login_attempts = 0, seen_at = now() where id = ${id}`);
  },
  delete(db: Queryable, id: number) {
    return db.query(sql.unsafe`delete from admin.users where id = ${id}`);
  },
  count(db: Queryable) {
    return db.oneFirst(sql.type(z.object({ count: z.number() }))`select count(*)::int as count from admin.users where not is_service`);
  },
};
