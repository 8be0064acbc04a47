import { randomUUID } from 'node:crypto';
import { SCIM_SCHEMAS, ScimGroupInput, type ScimGroup, type ScimPatchRequest } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { groupReadModel, type GroupRow } from '../groups/group-read-model.ts';
import { groupService } from '../groups/group-service.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { ScimError } from './scim-errors.ts';
import { patched } from './scim-patch.ts';

async function requireScimGroup(db: Queryable, scimId: string): Promise<GroupRow> {
  const group = await groupReadModel.findByScimId(db, scimId);
  if (!group) throw new ScimError(404, `Could not find group ${scimId}`);
  return group;
}

/** Members are SCIM users, named by their SCIM id; one SCIM does not know is the client's error. */
async function userIdsOf(db: Queryable, members: readonly { value: string }[]): Promise<number[]> {
  const ids: number[] = [];
  for (const member of members) {
    const user = await userReadModel.findByScimId(db, member.value);
    if (!user) throw new ScimError(400, `The member ${member.value} is not a user SCIM provisioned`, 'invalidValue');
    ids.push(user.id);
  }
  return ids;
}

export function scimGroups(deps: { baseUrl: string }) {
  const location = (scimId: string) => new URL(`/scim/v2/Groups/${scimId}`, deps.baseUrl).toString();
  async function view(db: Queryable, group: GroupRow, withMembers = true): Promise<ScimGroup> {
    const members = [];
    if (withMembers) {
      for (const userId of await groupReadModel.memberIds(db, group.id)) {
        const user = await userReadModel.find(db, userId);
        if (user?.scimId)
          members.push({ value: user.scimId, display: user.name ?? user.username ?? user.email ?? user.scimId });
      }
    }
    return {
      schemas: [SCIM_SCHEMAS.group],
      id: group.scimId!,
      ...(group.scimExternalId ? { externalId: group.scimExternalId } : {}),
      displayName: group.name,
      ...(withMembers ? { members } : {}),
      meta: { resourceType: 'Group', created: group.createdAt, location: location(group.scimId!) },
    };
  }
  const applied = async (change: Change, group: GroupRow, input: ScimGroupInput) => {
    const userIds = input.members
      ? await userIdsOf(change.tx, input.members)
      : await groupReadModel.memberIds(change.tx, group.id);
    await groupService.update(change, group.id, {
      name: input.displayName,
      users: userIds.map((id) => ({ user: { id } })),
    });
    await groupService.setScim(change, group.id, {
      scimId: group.scimId,
      externalId: input.externalId ?? group.scimExternalId,
    });
    return view(change.tx, (await groupReadModel.findByScimId(change.tx, group.scimId!))!);
  };
  return {
    /** Members are left out when the client asks (excludedAttributes=members, as Entra does for large groups). */
    async list(db: Queryable, withMembers: boolean): Promise<ScimGroup[]> {
      const groups = [];
      for (const group of await groupReadModel.scimManaged(db)) groups.push(await view(db, group, withMembers));
      return groups;
    },
    async get(db: Queryable, scimId: string, withMembers = true): Promise<ScimGroup> {
      return view(db, await requireScimGroup(db, scimId), withMembers);
    },
    async create(change: Change, input: ScimGroupInput): Promise<ScimGroup> {
      const userIds = await userIdsOf(change.tx, input.members ?? []);
      const created = await groupService.create(change, {
        name: input.displayName,
        users: userIds.map((id) => ({ user: { id } })),
      });
      const scimId = randomUUID();
      await groupService.setScim(change, created.id, { scimId, externalId: input.externalId ?? null });
      return view(change.tx, (await groupReadModel.findByScimId(change.tx, scimId))!);
    },
    async replace(change: Change, scimId: string, input: ScimGroupInput): Promise<ScimGroup> {
      return applied(change, await requireScimGroup(change.tx, scimId), input);
    },
    /** Membership changes by path, `members[value eq "..."]` included, applied to the group as it is. */
    async patch(change: Change, scimId: string, request: ScimPatchRequest): Promise<ScimGroup> {
      const group = await requireScimGroup(change.tx, scimId);
      // Entra removes members by value ({op: Remove, path: members, value: [{value}]}): one filtered remove each.
      const operations = request.Operations.flatMap((operation) =>
        operation.op === 'remove' && operation.path === 'members' && Array.isArray(operation.value)
          ? (operation.value as { value?: unknown }[]).map((member) => ({
              op: 'remove' as const,
              path: `members[value eq ${JSON.stringify(String(member.value))}]`,
            }))
          : [operation],
      );
      const result = ScimGroupInput.safeParse(
        patched(await view(change.tx, group), { ...request, Operations: operations }),
      );
      if (!result.success)
        throw new ScimError(
          400,
          `The group the operations leave is not valid: ${result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
          'invalidValue',
        );
      return applied(change, group, { ...result.data, members: result.data.members ?? [] });
    },
    async remove(change: Change, scimId: string): Promise<void> {
      await groupService.delete(change, (await requireScimGroup(change.tx, scimId)).id);
    },
  };
}
