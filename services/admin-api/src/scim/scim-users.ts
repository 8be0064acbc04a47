import { randomUUID } from 'node:crypto';
import { SCIM_SCHEMAS, ScimUserInput, type ScimPatchRequest, type ScimUser } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { agentTokenService } from '../agent-tokens/agent-token-service.ts';
import type { Change } from '../events/changes.ts';
import type { SessionStore } from '../sessions/user-sessions.ts';
import { userReadModel, type UserRow } from '../users/user-read-model.ts';
import { userService } from '../users/user-service.ts';
import { ScimError } from './scim-errors.ts';
import { patched } from './scim-patch.ts';

/** The user as SCIM shows it; Bunting keeps one name, so givenName and familyName come back as `formatted`. */
export function userResource(user: UserRow, baseUrl: string): ScimUser {
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: user.scimId!,
    ...(user.scimExternalId ? { externalId: user.scimExternalId } : {}),
    userName: user.username ?? user.email ?? '',
    ...(user.name ? { name: { formatted: user.name }, displayName: user.name } : {}),
    emails: user.email ? [{ value: user.email, primary: true, type: 'work' }] : [],
    active: user.active,
    meta: {
      resourceType: 'User',
      created: user.createdAt,
      location: new URL(`/scim/v2/Users/${user.scimId}`, baseUrl).toString(),
    },
  };
}

/** What Bunting keeps of a SCIM user: the primary (else first) e-mail, or userName when it is an address. */
function fieldsOf(input: ScimUserInput) {
  const email =
    input.emails?.find((entry) => entry.primary)?.value ??
    input.emails?.[0]?.value ??
    (input.userName.includes('@') ? input.userName : undefined);
  const parts = [input.name?.givenName, input.name?.familyName].filter((part): part is string => Boolean(part));
  const name = input.displayName ?? input.name?.formatted ?? (parts.length > 0 ? parts.join(' ') : undefined);
  return { username: input.userName, email, name, active: input.active ?? true, externalId: input.externalId ?? null };
}

async function requireScimUser(db: Queryable, scimId: string): Promise<UserRow> {
  const user = await userReadModel.findByScimId(db, scimId);
  if (!user) throw new ScimError(404, `Could not find user ${scimId}`);
  return user;
}

export function scimUsers(deps: { sessions: SessionStore; baseUrl: string }) {
  const view = (user: UserRow) => userResource(user, deps.baseUrl);
  // Deactivated: sessions end, and tokens acting as the user stop working (they resolve no principal).
  const applied = async (change: Change, user: UserRow, input: ScimUserInput): Promise<UserRow> => {
    const fields = fieldsOf(input);
    await userService.update(change, user.id, {
      username: fields.username,
      ...(fields.email ? { email: fields.email } : {}),
      ...(fields.name ? { name: fields.name } : {}),
    });
    await userService.setScim(change, user.id, {
      scimId: user.scimId,
      externalId: fields.externalId,
      active: fields.active,
    });
    if (user.active && !fields.active) {
      // Nothing of theirs works again if they come back: their agents' tokens are revoked, not just refused meanwhile.
      await agentTokenService.revokeAllOf(change, user.id);
      await deps.sessions.endAllOf(user.id);
    }
    return (await userReadModel.find(change.tx, user.id))!;
  };
  return {
    async list(db: Queryable): Promise<ScimUser[]> {
      return (await userReadModel.scimManaged(db)).map(view);
    },
    async get(db: Queryable, scimId: string): Promise<ScimUser> {
      return view(await requireScimUser(db, scimId));
    },
    /** New users get the Viewer root role; groups with a root role widen it. */
    async create(change: Change, input: ScimUserInput): Promise<ScimUser> {
      const fields = fieldsOf(input);
      const created = await userService.create(change, {
        username: fields.username,
        ...(fields.email ? { email: fields.email } : {}),
        ...(fields.name ? { name: fields.name } : {}),
        rootRole: 'Viewer',
      });
      await userService.setScim(change, created.id, {
        scimId: randomUUID(),
        externalId: fields.externalId,
        active: fields.active,
      });
      return view((await userReadModel.find(change.tx, created.id))!);
    },
    async replace(change: Change, scimId: string, input: ScimUserInput): Promise<ScimUser> {
      return view(await applied(change, await requireScimUser(change.tx, scimId), input));
    },
    async patch(change: Change, scimId: string, request: ScimPatchRequest): Promise<ScimUser> {
      const user = await requireScimUser(change.tx, scimId);
      const result = ScimUserInput.safeParse(patched(userResource(user, deps.baseUrl), request));
      if (!result.success)
        throw new ScimError(
          400,
          `The user the operations leave is not valid: ${result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
          'invalidValue',
        );
      return view(await applied(change, user, result.data));
    },
    /**
     * Deprovisioning: the account is deactivated and no longer SCIM's (404 from now on), kept with its history; an
     * admin may delete it.
     */
    async remove(change: Change, scimId: string): Promise<void> {
      const user = await requireScimUser(change.tx, scimId);
      await userService.setScim(change, user.id, { scimId: null, externalId: null, active: false });
      await agentTokenService.revokeAllOf(change, user.id);
      await deps.sessions.endAllOf(user.id);
    },
  };
}
