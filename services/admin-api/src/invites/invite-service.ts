import { randomBytes } from 'node:crypto';
import { SYSTEM_ACTOR, type CreateInvitedUser } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change, Changes } from '../events/changes.ts';
import type { PasswordHashing } from '../users/passwords.ts';
import { roleReadModel } from '../roles/role-read-model.ts';
import { userReadModel, userView } from '../users/user-read-model.ts';
import { userService } from '../users/user-service.ts';
import { inviteStore, type TokenRow } from './invite-store.ts';

export function createInviteService(baseUrl: string, hashing: PasswordHashing) {
  const url = (secret: string) => `${baseUrl.replace(/\/$/, '')}/new-user?invite=${secret}`;

  async function view(db: Queryable, row: TokenRow) {
    const role = await roleReadModel.view(db, row.roleId);
    const users = await userReadModel.views(db, await inviteStore.userIds(db, row.secret));
    return {
      ...row,
      url: url(row.secret),
      users,
      role: role ? { id: role.id, name: role.name, type: role.type } : null,
    };
  }

  async function requireToken(db: Queryable, secret: string) {
    const row = await inviteStore.get(db, secret);
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
      const rows = await inviteStore.list(db);
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
      const row = await inviteStore.insert(tx, {
        secret,
        name: input.name,
        expiresAt: expiresAt.toISOString(),
        createdBy: actor.createdBy,
      });
      const created = await view(tx, row);
      emit({ type: 'public-signup-token-created', data: created });
      return created;
    },

    async update(
      { tx, emit }: Change,
      secret: string,
      input: { expiresAt?: string | undefined; enabled?: boolean | undefined },
    ) {
      const before = await requireToken(tx, secret);
      const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : before.expiresAt;
      const enabled = input.enabled ?? before.enabled;
      await inviteStore.update(tx, secret, expiresAt, enabled);
      emit({
        type: 'public-signup-token-updated',
        data: {
          secret,
          ...(input.expiresAt ? { expiresAt } : {}),
          ...(input.enabled !== undefined ? { enabled } : {}),
        },
      });
      return view(tx, await requireToken(tx, secret));
    },

    async validate(db: Queryable, secret: string) {
      await requireUsable(db, secret);
    },

    /** Signs a person up as the link's role (Viewer), linked to the link; nothing is created when anything is wrong. */
    async signup(changes: Changes, secret: string, input: CreateInvitedUser) {
      return changes.run({ system: SYSTEM_ACTOR }, async (change) => {
        const token = await requireUsable(change.tx, secret);
        const user = await userService.create(change, { ...input, rootRole: token.roleId }, { hashing });
        await inviteStore.addUser(change.tx, secret, user.id);
        change.emit({ type: 'public-signup-token-user-added', data: { secret, userId: user.id } });
        return userView(user);
      });
    },
  };
}
