import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { SYSTEM_ACTOR, type CreateInvitedUser } from '@bunting/contracts';
import { NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change, Changes } from '../events/changes.ts';
import { roleStore } from '../roles/role-store.ts';
import { userService } from '../users/user-service.ts';
import { userStore, userView } from '../users/user-store.ts';

const TokenRow = z.object({
  secret: z.string(),
  name: z.string(),
  expiresAt: z.string(),
  enabled: z.boolean(),
  roleId: z.number(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
type TokenRow = z.infer<typeof TokenRow>;

const select = sql.fragment`select secret, name, expires_at as "expiresAt", enabled, role_id as "roleId",
  created_by as "createdBy", created_at as "createdAt" from admin.public_signup_tokens`;

export function createInviteService(baseUrl: string) {
  const url = (secret: string) => `${baseUrl.replace(/\/$/, '')}/new-user?invite=${secret}`;

  async function view(db: Queryable, row: TokenRow) {
    const role = await roleStore.get(db, row.roleId);
    const userIds = await db.anyFirst(sql.type(z.object({ userId: z.number() }))`
      select user_id as "userId" from admin.public_signup_token_users where secret = ${row.secret} order by user_id`);
    const users = [];
    for (const id of userIds) {
      const user = await userStore.get(db, id);
      if (user) users.push(userView(user));
    }
    return { ...row, url: url(row.secret), users, role: role ? { id: role.id, name: role.name, type: role.type } : null };
  }

  async function requireToken(db: Queryable, secret: string) {
    const row = await db.maybeOne(sql.type(TokenRow)`${select} where secret = ${secret}`);
    if (!row) throw new NotFoundError('Could not find that invite link');
    return row;
  }

  /** A link a person can sign up with: it exists, is enabled and has not expired. */
  async function requireUsable(db: Queryable, secret: string) {
    const row = await requireToken(db, secret);
    if (!row.enabled) throw ValidationError.field('token', 'this invite link has been disabled');
    if (Date.parse(row.expiresAt) <= Date.now()) throw ValidationError.field('token', 'this invite link has expired');
    return row;
  }

  return {
    async list(db: Queryable) {
      const rows = await db.any(sql.type(TokenRow)`${select} order by created_at`);
      const tokens = [];
      for (const row of rows) tokens.push(await view(db, row));
      return { tokens };
    },

    async get(db: Queryable, secret: string) {
      return view(db, await requireToken(db, secret));
    },

    async create({ tx, emit, actor }: Change, input: { name: string; expiresAt: string }) {
      const expiresAt = new Date(input.expiresAt);
      if (expiresAt.getTime() <= Date.now()) throw ValidationError.field('expiresAt', 'must be in the future');
      const secret = randomBytes(16).toString('hex');
      const row = await tx.one(sql.type(TokenRow)`insert into admin.public_signup_tokens (secret, name, expires_at, created_by)
        values (${secret}, ${input.name}, ${expiresAt.toISOString()}, ${actor.createdBy})
        returning secret, name, expires_at as "expiresAt", enabled, role_id as "roleId", created_by as "createdBy", created_at as "createdAt"`);
      const created = await view(tx, row);
      emit({ type: 'public-signup-token-created', data: created });
      return created;
    },

    async update({ tx, emit }: Change, secret: string, input: { expiresAt?: string | undefined; enabled?: boolean | undefined }) {
      const before = await requireToken(tx, secret);
      const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : before.expiresAt;
      const enabled = input.enabled ?? before.enabled;
      await tx.query(sql.unsafe`update admin.public_signup_tokens set expires_at = ${expiresAt}, enabled = ${enabled} where secret = ${secret}`);
      emit({ type: 'public-signup-token-updated', data: { secret, ...(input.expiresAt ? { expiresAt } : {}), ...(input.enabled !== undefined ? { enabled } : {}) } });
      return view(tx, await requireToken(tx, secret));
    },

    async validate(db: Queryable, secret: string) {
      await requireUsable(db, secret);
    },

    /** Seed endpoint 3: a Viewer linked to the link; nothing is created when anything is wrong. */
    async signup(changes: Changes, secret: string, input: CreateInvitedUser) {
      return changes.run(SYSTEM_ACTOR, async (change) => {
        const token = await requireUsable(change.tx, secret);
        const user = await userService.create(change, { ...input, rootRole: token.roleId });
        await change.tx.query(sql.unsafe`insert into admin.public_signup_token_users (secret, user_id) values (${secret}, ${user.id})`);
        change.emit({ type: 'public-signup-token-user-added', data: { secret, userId: user.id } });
        return userView(user);
      });
    },
  };
}
export type InviteService = ReturnType<typeof createInviteService>;

